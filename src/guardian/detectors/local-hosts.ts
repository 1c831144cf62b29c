/*
 * (Eleventh round, "exf11") The one list of hosts that are this machine or its own network, for every exfiltration
 * check that lets a destination pass because it does not leave (docs/detection.md, "Eleventh round: exfiltration
 * (exf11)", "One list of local hosts"). It replaces three lists that had drifted apart (exfil-payloads' `localHost`,
 * exfil-channels' `INTERNAL`, exfil-outlets' own additions): one knew `.home` and single-label names, another
 * `host.docker.internal` and `.localhost`, a third `0.0.0.0`; none knew link-local or IPv6 unique-local addresses, and
 * one took every IPv6 literal for a single-label name.
 *
 * Local, decided on purpose:
 * - loopback: `localhost`, any `*.localhost` (RFC 6761), 127.0.0.0/8, `::1`, and `0.0.0.0` (this machine, as tools
 *   write it);
 * - private and shared networks: 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, link-local 169.254.0.0/16 and fe80::/10,
 *   shared address space 100.64.0.0/10 (carrier NAT; also where Tailscale puts the user's own devices), IPv6
 *   unique-local fc00::/7, and IPv4-mapped IPv6 of any of these;
 * - names only a local resolver answers: a single label (`nas`, `db`: a search domain's name), and the suffixes
 *   `.local` (mDNS, Kubernetes' `svc.cluster.local`), `.lan`, `.home`, `.home.arpa` (RFC 8375), `.internal` (Docker's
 *   `host.docker.internal`, cloud VPC names), `.intranet`, `.corp`, `.localdomain`.
 *
 * Not local: everything else, including the names reserved for documentation (`.example`, `.test`, `.invalid`): an
 * address in an example is someone else's host as far as a request is concerned. A company's own public names are
 * the rule's `allow` list, not this one.
 */

const LOCAL_SUFFIX = /\.(?:local|lan|home|home\.arpa|internal|intranet|corp|localdomain|localhost)$/;
const SINGLE_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,62})$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function localIpv4(a: number, b: number): boolean {
  return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127) || a === 0;
}

/** Whether a host (a name or an address, any case, IPv6 with or without brackets) is this machine or its network. */
export function localHost(host: string): boolean {
  let h = host.trim().toLowerCase();
  // (`user@host`, `host:port` and `[v6]:port` as command lines write them.)
  if (h.includes("@")) h = h.slice(h.lastIndexOf("@") + 1);
  const bracketed = /^\[([^\]]{1,64})\](?::\d{1,5})?$/.exec(h);
  if (bracketed) h = bracketed[1] as string;
  else if (/^[^:]+:\d{1,5}$/.test(h)) h = h.slice(0, h.indexOf(":"));
  h = h.replace(/\.$/, "");
  if (h === "" || h.length > 253) return false;
  if (h === "localhost" || LOCAL_SUFFIX.test(h)) return true;
  const v4 = IPV4.exec(h);
  if (v4) return localIpv4(Number(v4[1]), Number(v4[2]));
  if (h.includes(":")) {
    if (h === "::1" || h === "::") return true;
    const mapped = /^::ffff:(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(h);
    if (mapped) return localIpv4(Number(mapped[1]), Number(mapped[2]));
    return /^f[cd][0-9a-f]{0,2}:/.test(h) || /^fe[89ab][0-9a-f]?:/.test(h);
  }
  return SINGLE_LABEL.test(h);
}
