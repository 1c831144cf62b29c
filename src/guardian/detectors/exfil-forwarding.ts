import type { Detection, StringSite } from "./scan.js";

/*
 * (Fifteenth round, "exf15") A network device or a host told to forward its logs, its flows or a copy of its traffic
 * to an address outside: a syslog server (`logging host`, FortiOS `config log syslogd … set server`, Junos
 * `set system syslog host`, rsyslog's `*.* @@addr`), a flow exporter (NetFlow, IPFIX, sFlow collectors), a mirror
 * session's destination (ERSPAN, RSPAN over IP). Whatever the vendor, these features exist to send data away; sent to
 * a public IPv4 literal, every log line (user names, VPN logins) or every packet leaves the network. An internal
 * address, a host name (a log service the team signed up for), an NTP or DNS server, the mirror's own origin address
 * pass.
 *
 * Linear: one pass over the lines of a call's arguments (64 KB at most), a bounded regex per line.
 */

const MAX_TEXT = 65_536;
/** A line that is itself a forwarding order with its destination. */
const FORWARD_LINE = /\b(?:logging\s{1,4}(?:host\s{1,4}|server\s{1,4})?|syslog\s{1,4}(?:host|server)\s{1,4}|flow-export\s{1,4}destination\s{1,4}|(?:sflow|netflow|ipfix)\s{1,4}(?:collector|destination|server)(?:[-\s]{1,4}(?:ip|address))?\s{1,4}|collector[-_]?ip\s{1,4}|set\s{1,4}collector-ip\s{1,4}"?)"?(\d{1,3}(?:\.\d{1,3}){3})\b|(?:^|[\s'"])(?:[a-z*]{1,12}\.[a-z*!=]{1,12}[,;]?){1,6}\s{1,8}@@?(?:\(o\))?(\d{1,3}(?:\.\d{1,3}){3})\b/i;
/** A block that sets up forwarding: its lines' addresses are destinations until the block ends. */
const BLOCK_HEAD = /^\s{0,8}(?:config\s{1,4}(?:log\s{1,4}syslogd\d?|log\s{1,4}fortianalyzer\d?|system\s{1,4}(?:netflow|sflow))|monitor\s{1,4}session\s{1,4}\d{1,5}\s{1,4}type\s{1,4}(?:erspan|rspan)-source|flow\s{1,4}exporter\b|(?:erspan|rspan)\b)/i;
const BLOCK_END = /^\s{0,8}(?:end|exit|!|quit)\s{0,8}$/i;
/** An address line inside such a block (not the origin or source address of the session itself). */
const BLOCK_ADDRESS = /^\s{0,8}(?!(?:origin|source|src)\b)[a-z -]{0,40}?(?:ip\s{1,4}address|address|server|destination|collector(?:-ip)?|host)\s{1,4}"?(\d{1,3}(?:\.\d{1,3}){3})\b/i;
const GATE = /syslog|logging|flow|erspan|rspan|monitor\s|collector|@@?\d|fortianalyzer/i;

/** Whether an IPv4 literal is a public address (not private, loopback, link-local, shared, multicast or reserved). */
export function publicIpv4(ip: string): boolean {
  const p = ip.split(".").map(Number);
  if (p.length !== 4 || p.some((x) => !Number.isInteger(x) || x < 0 || x > 255)) return false;
  const [a, b] = p as [number, number, number, number];
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
  if (a === 169 && b === 254) return false;
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 100 && b >= 64 && b <= 127) return false;
  return true;
}

/** Logs, flows or mirrored traffic sent to a public address, in an outbound tool call's arguments (lines in order). */
const IPV4 = /\d\.\d{1,3}\.\d{1,3}\.\d/;

export function forwardedOutside(sites: readonly StringSite[]): Detection[] {
  // Most calls name no IPv4 address at all: one scan for a dotted quad's middle first.
  if (!sites.some((site) => site.path[0] === "params" && site.path[1] === "arguments" && site.value.length <= MAX_TEXT && IPV4.test(site.value))) return [];
  const out: Detection[] = [];
  let inBlock = 0;
  let total = 0;
  for (const site of sites.length > 256 ? sites.slice(0, 256) : sites) {
    if (site.path[0] !== "params" || site.path[1] !== "arguments") continue;
    const v = site.value;
    total += v.length;
    if (total > MAX_TEXT) break;
    if (!GATE.test(v) && inBlock === 0) continue;
    let at = 0;
    for (const line of v.split("\n")) {
      const start = at;
      at += line.length + 1;
      if (line.length > 512) continue;
      if (BLOCK_HEAD.test(line)) inBlock = 24;
      else if (inBlock > 0 && BLOCK_END.test(line)) inBlock = 0;
      const direct = FORWARD_LINE.exec(line);
      const ip = direct ? (direct[1] ?? direct[2]) : inBlock > 0 ? BLOCK_ADDRESS.exec(line)?.[1] : undefined;
      if (inBlock > 0) inBlock--;
      if (ip !== undefined && publicIpv4(ip) && !/^\s{0,8}(?:origin|source|src)\b/i.test(line)) {
        out.push({ type: "exfiltration.request", path: site.path, start, end: start + line.length, detail: `logs or traffic forwarded to ${ip}, an outside address` });
        return out;
      }
    }
  }
  return out;
}
