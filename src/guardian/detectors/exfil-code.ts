import { literalId, literalsOf } from "./literals.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * (Fourteenth round, "exf14") Data that code a tool runs, or a request's host name, carries off the machine where the
 * earlier checks read only URLs and command lines (docs/detection.md, "Fourteenth round: exfiltration (exf14)"):
 *
 * - *The whole environment as a request's payload*: code that serialises every environment variable
 *   (`dict(os.environ)`, `JSON.stringify(process.env)`, `ENV.to_h`, `Get-ChildItem env:`, `System.getenv()`) into the
 *   call that sends a request to a host that is not this machine's. The environment is where keys live: sent whole,
 *   it is a credentials file. Reading one variable (`os.environ["TOKEN"]` as the API's own header, `process.env.PORT`)
 *   passes, and so does printing the environment locally.
 * - *Chunked DNS lookups*: a resolver call (`gethostbyname`, `dns.resolve`, `Resolve-DnsName`, `dig`, `nslookup`…)
 *   whose name is built from an interpolated value, in code that cuts data into label-sized slices
 *   (`s[i:i+60]`, `.slice(i, i + 60)`, `fold -w`) or encodes it (base32, base64, hex): data leaving one label at a
 *   time. A lookup per service name, a DNSBL query of a reversed address, a hash registry's `hexdigest()` pass.
 * - *Data in the labels of an address-embedding wildcard host* (nip.io, sslip.io, xip.io, traefik.me): such a name
 *   resolves to the address it spells, so the other labels have no job but to carry what the requester puts there.
 *   Long digit runs there (an id, a birth date, a card) are data; `grafana.10.0.0.5.nip.io`, `pr-1234.…` are names.
 *
 * Linear: bounded regexes without nested quantifiers, one pass each over at most 64 KB of a value.
 */

const MAX_TEXT = 65_536;

/* -------------------------------------------------------------------------------------------------------------- */
/* The whole environment as a payload                                                                               */
/* -------------------------------------------------------------------------------------------------------------- */

/** An expression that is every environment variable at once, serialised or as a mapping (not `env=os.environ` handed to a child process). */
const WHOLE_ENV =
  /\b(?:dict|str|repr|list|json\.dumps)\(\s{0,4}os\.environ(?:\.items\(\))?\s{0,4}[,)]|\{\s{0,4}\*\*os\.environ\b|\bos\.environ\.(?:copy|items)\(\)|(?<![Ee]nv\s{0,2})[=:(,]\s{0,4}os\.environ\s{0,4}[,)}]|JSON\.stringify\(\s{0,4}process\.env\s{0,4}[,)]|\.\.\.process\.env\b|(?<![Ee]nv\s{0,2})[=:(,]\s{0,4}process\.env\s{0,4}[,)}]|\bENV\.(?:to_h|to_hash|to_a)\b|\b(?:Get-ChildItem|gci|ls|dir)\s{1,4}env:|\bSystem\.getenv\(\s{0,4}\)|\bos\.Environ\(\)|\$_ENV\b|\bgetenv\(\s{0,4}\)|\$\(\s{0,4}(?:env|printenv)\s{0,4}\)/;
const ENV_WORDS = /environ|process\.env|ENV\.|env:|getenv|Environ\(|\$_ENV|\$\(\s{0,4}(?:env|printenv)/;
/** A name assigned the whole environment (`env = dict(os.environ)`, `const all = {...process.env}`). */
const ASSIGNED = /(?:^|[\s;{(])(?:const\s{1,4}|let\s{1,4}|var\s{1,4}|\$)?([A-Za-z_]\w{0,40})\s{0,4}=(?!=)/g;
/** A call that sends a request. */
const SEND_CALL = /\b(?:requests\.(?:post|put|patch|request)|httpx\.(?:post|put|patch)|session\.(?:post|put)|client\.(?:post|put)|urlopen|Request|fetch|axios(?:\.(?:post|put))?|got\.post|https?\.request|Invoke-RestMethod|Invoke-WebRequest|irm|iwr|Net::HTTP\.post(?:_form)?|HTTParty\.post|http\.Post(?:Form)?|curl|wget)\b/g;
const URL_IN_CODE = /\bhttps?:\/\/([A-Za-z0-9.-]{1,253})(?::\d{1,5})?[^\s"'`<>)]{0,2048}/g;

/** The call from `from`: to where its brackets close (or the line ends at depth 0), 600 characters at most. */
function callAfter(v: string, from: number): string {
  let depth = 0;
  let i = from;
  for (const stop = Math.min(v.length, from + 600); i < stop; i++) {
    const c = v[i] as string;
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      if (--depth < 0) break;
      if (depth === 0 && c === ")" && i > from && /[\n;]/.test(v[i + 1] ?? "\n")) {
        i++;
        break;
      }
    } else if ((c === "\n" || c === ";") && depth <= 0) break;
  }
  return v.slice(from, i);
}

/**
 * Code or a command that sends the whole environment in a request to a host that is not local or allowed: the URL is
 * the finding. `local` and `allowed` take a lower-case host.
 */
export function environmentSent(sites: readonly StringSite[], local: (host: string) => boolean, allowed: (host: string) => boolean): Detection[] {
  const out: Detection[] = [];
  for (const site of sites) {
    if (site.path[0] !== "params" || site.path[1] !== "arguments") continue;
    const v = site.value;
    if (v.length > MAX_TEXT || !v.includes("://") || !ENV_WORDS.test(v)) continue;
    let url: RegExpExecArray | null = null;
    URL_IN_CODE.lastIndex = 0;
    for (let m, n = 0; (m = URL_IN_CODE.exec(v)) !== null && n < 32; n++) {
      const host = (m[1] as string).toLowerCase();
      if (!local(host) && !allowed(host)) {
        url = m;
        break;
      }
    }
    if (url === null) continue;
    // Names the code gives the whole environment, to find it passed by name.
    const names: string[] = [];
    ASSIGNED.lastIndex = 0;
    for (let m, n = 0; (m = ASSIGNED.exec(v)) !== null && n < 256 && names.length < 8; n++) {
      if (WHOLE_ENV.test("=" + callAfter(v, m.index + m[0].length).slice(0, 200))) names.push(m[1] as string);
    }
    let sent = false;
    SEND_CALL.lastIndex = 0;
    for (let m, n = 0; (m = SEND_CALL.exec(v)) !== null && n < 64 && !sent; n++) {
      const call = callAfter(v, m.index + m[0].length);
      sent = WHOLE_ENV.test(call) || names.some((x) => new RegExp(`(?:[=:(,\\s]|\\*\\*)${x}\\s{0,4}[,)}]|[=:(,\\s]\\$${x}\\b`).test(call));
    }
    if (!sent) continue;
    out.push({ type: "exfiltration.request", path: site.path, start: url.index, end: url.index + url[0].length, detail: "the URL carries the whole environment (every variable, keys among them)" });
  }
  return out;
}

/* -------------------------------------------------------------------------------------------------------------- */
/* Chunked DNS lookups                                                                                              */
/* -------------------------------------------------------------------------------------------------------------- */

/** A resolver call, then (within 160 characters) a name built from an interpolated value and a domain. */
const RESOLVER = /\b(?:gethostbyname(?:_ex)?|getaddrinfo|gethostbyaddr|dns\.(?:resolve\w{0,6}|lookup|query)|resolver\.(?:resolve|query)|Resolve-DnsName|InetAddress\.getByName|Dns\.GetHost(?:Entry|Addresses)\w{0,5}|net\.Lookup(?:Host|IP|TXT)|nslookup|dig)\b/g;
const BUILT_NAME = /(?:\{[^{}\n]{1,80}\}|\$\{[^{}\n]{1,80}\}|\$[A-Za-z_]\w{0,40}|["']\s{0,3}\+|\+\s{0,3}["']|%s)\.?[A-Za-z0-9{}$._-]{0,120}\.[a-z]{2,24}\b/;
/** Data cut to label size: a slice from a running index, `fold -w`, `cut -c`, a regex of n characters. */
const CHUNKED = /\[\s{0,3}([A-Za-z_]\w{0,20})\s{0,3}:\s{0,3}\1\s{0,3}\+\s{0,3}\w{1,20}\s{0,3}\]|\.(?:slice|substring|substr|Substring)\(\s{0,3}([A-Za-z_]\w{0,20})\s{0,3},\s{0,3}(?:\2\s{0,3}\+|\d{1,3}\s{0,3}\))|\bfold\s{1,4}-(?:b\s{0,4})?w\s{0,4}\d|\bcut\s{1,4}-c\s{0,4}\d|\bsplit\s{1,4}-b\s{0,4}\d|\.\{1,\d{2}\}|textwrap\.wrap\(|\bchunks?\(|\.chunked\(/;
/** Data encoded for a label: base32, base64, hex (not a digest: `hexdigest()` is a hash registry's lookup). */
const ENCODED = /b32encode|b64encode|urlsafe_b64encode|\bbase32\b|\bbase64\b|hexlify|\.hex\(\)|\bxxd\b|\bod\s{1,4}-[A-Za-z]{0,4}x|toString\(\s{0,3}["'](?:hex|base64|base64url)["']\s{0,3}\)|ToBase64String|Convert\.ToHexString|\bhex\.EncodeToString|base32\.\w{0,20}Encod/;
/** A literal of encoded data long enough to be a secret's (base32 or hex, 40 characters or more). */
const ENCODED_LITERAL = /["'](?:[a-z2-7]{40,}|[A-Z2-7]{40,}|[0-9a-f]{40,})["']/;

/**
 * Every RESOLVER match holds one of these (in any case): a short message whose literal prefilter holds none of them
 * has no resolver call, and its strings are not searched (issue 25: the alternation, tried at every word of a 1 KB
 * call's arguments, was about 1 % of judging it).
 */
const RESOLVER_IDS = ["gethostby", "getaddrinfo", "dns.", "resolver.", "resolve-dnsname", "inetaddress.getbyname", "net.lookup", "nslookup", "dig"].map(literalId);

export function chunkedLookups(sites: readonly StringSite[]): Detection[] {
  const out: Detection[] = [];
  const lits = literalsOf(sites as StringSite[]);
  if (lits !== null && !lits.any(RESOLVER_IDS)) return out;
  for (const site of sites) {
    if (site.path[0] !== "params" || site.path[1] !== "arguments") continue;
    const v = site.value;
    if (v.length > MAX_TEXT || v.length < 24) continue;
    RESOLVER.lastIndex = 0;
    let call: RegExpExecArray | null = null;
    for (let m, n = 0; (m = RESOLVER.exec(v)) !== null && n < 64; n++) {
      if (BUILT_NAME.test(v.slice(m.index + m[0].length, m.index + m[0].length + 160))) {
        call = m;
        break;
      }
    }
    if (call === null) continue;
    if (!CHUNKED.test(v) && !ENCODED.test(v) && !ENCODED_LITERAL.test(v)) continue;
    const end = Math.min(v.length, call.index + 160);
    let stop = call.index;
    while (stop < end && v[stop] !== "\n") stop++;
    out.push({ type: "exfiltration.dns", path: site.path, start: call.index, end: stop, detail: "data cut or encoded into the names a loop of lookups resolves" });
  }
  return out;
}

/* -------------------------------------------------------------------------------------------------------------- */
/* Wildcard hosts that spell an address                                                                             */
/* -------------------------------------------------------------------------------------------------------------- */

const WILDCARD = /\.(?:nip\.io|sslip\.io|xip\.io|traefik\.me|nip\.direct)$/;
/** The address such a name spells: dotted, dashed or hex, as the name's last labels before the service. */
const SPELLED_ADDRESS = /(?:^|[.-])(?:\d{1,3}[.-]\d{1,3}[.-]\d{1,3}[.-]\d{1,3}|[0-9a-f]{8})$/;

/** Data in the free labels of an address-embedding wildcard host: a run of nine digits, or twelve digits in all. */
export function wildcardHostData(host: string): string | null {
  if (host.length > 253 || !WILDCARD.test(host)) return null;
  const name = host.replace(WILDCARD, "").replace(SPELLED_ADDRESS, "");
  let digits = 0;
  let longest = 0;
  for (const run of name.match(/\d+/g) ?? []) {
    digits += run.length;
    longest = Math.max(longest, run.length);
  }
  return longest >= 9 || digits >= 12 ? "data in the labels of a wildcard host that spells an address" : null;
}
