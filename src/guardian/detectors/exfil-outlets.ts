import { markedDocument } from "./exfil-marked.js";
import type { ChannelContext, ChannelFinding } from "./exfil-channels.js";
import { localHost } from "./local-hosts.js";

/*
 * (Ninth round) Outlets of a command line that are neither an HTTP request nor a URL carrying data
 * (docs/detection.md, "Ninth round: exfiltration and commands"):
 *
 * - a tunnel that publishes a local port on a public relay: `ssh -R … nokey@localhost.run` (or serveo, pinggy, any host
 *   on the tunnel list), `bore local <port> --to <public host>`, and `ngrok tcp` / `cloudflared --url tcp://` of a data
 *   service's port (a database, a cache, a search engine). `ngrok http 3000`, `ssh -R` to the team's own host and `ssh
 *   -L` (bringing a remote port here) pass;
 * - the environment leaving: its dump (`env`, `printenv`, `set`, `export -p`, `/proc/*\/environ`) substituted into, or
 *   piped into, a command that names a host off this machine (an OTLP exporter's endpoint, curl, mosquitto_pub, nc);
 * - a protocol other than HTTP: a data file uploaded by curl over SMTP (`smtp://… --mail-rcpt … -T payroll.csv`), and
 *   anything read from a file or standard input published to a public MQTT test broker;
 * - cloud storage handed to someone else: a dump, an export or a credential file uploaded with an ACL that gives the
 *   object to another account's bucket (`bucket-owner-full-control`) or to everyone (`public-read`, grants to AllUsers).
 *   A site published public-read (`./dist`) and a download pass.
 *
 * Lexical and bounded like exfil-channels.ts: one command segment at a time (64 of them at most), words split on blanks.
 */

/** One command of a line: its words (quotes kept on the ends) and where it starts. */
interface Segment {
  words: string[];
  start: number;
  end: number;
  /** The previous segment was joined to this one by a pipe. */
  piped: boolean;
  /** Text of the previous segment (for what a pipe feeds in). */
  before: string;
}

const SPLIT = /(\|\||&&|[;|\n])/;

function segments(v: string): Segment[] {
  const out: Segment[] = [];
  let offset = 0;
  let piped = false;
  let before = "";
  const parts = v.split(SPLIT);
  for (let i = 0; i < parts.length && out.length < 64; i++) {
    const p = parts[i] as string;
    if (i % 2 === 1) {
      piped = p === "|";
      offset += p.length;
      continue;
    }
    const words = p.trim().split(/\s+/).filter((w) => w !== "").slice(0, 96);
    out.push({ words, start: offset, end: offset + p.length, piped, before });
    before = p;
    offset += p.length;
  }
  return out;
}

const unquote = (w: string) => w.replace(/^["']+|["']+$/g, "");
/** A command's name: past `sudo`, `env X=…`, `nohup`, assignments. */
function program(words: string[]): { name: string; at: number } {
  let i = 0;
  while (i < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i] as string) || /^(?:sudo|doas|nohup|exec|command|time|nice|torsocks)$/.test(words[i] as string))) i++;
  const w = words[i] ?? "";
  return { name: w.slice(w.lastIndexOf("/") + 1).toLowerCase(), at: i };
}


/** Public ssh relays that publish a forwarded port (no account needed). */
const SSH_RELAYS = /^(?:(?:[a-z0-9-]+\.)*localhost\.run|(?:[a-z0-9-]+\.)*serveo\.net|(?:[a-z0-9-]+\.)*pinggy\.io|tuns\.sh|srv\.us|(?:[a-z0-9-]+\.)*lhr\.life|ssh\.localhost\.run)$/i;
/** Ports of data services: databases, caches, search engines, message brokers, object stores. */
const DATA_PORTS = new Set(["1433", "1521", "3306", "5432", "5984", "6379", "7474", "7687", "8086", "9042", "9200", "9300", "11211", "15672", "26257", "27017", "27018", "28015", "5672", "9000", "8529"]);

function tunnels(segs: Segment[], ctx: ChannelContext): ChannelFinding[] {
  const out: ChannelFinding[] = [];
  for (const s of segs) {
    const { name, at } = program(s.words);
    const a = s.words.slice(at + 1).map(unquote);
    if ((name === "ssh" || name === "autossh") && a.some((t) => t === "-R" || /^-[A-Za-z]*R/.test(t))) {
      // The destination: the first operand that is not an option's value.
      const dest = destination(a);
      if (dest !== null && (SSH_RELAYS.test(dest) || ctx.drop(dest))) out.push({ start: s.start, end: s.end, detail: "a local port published on a public ssh relay" });
    }
    if (name === "bore" && a[0] === "local") {
      const to = a.indexOf("--to");
      const host = to >= 0 ? (a[to + 1] ?? "").toLowerCase() : "bore.pub";
      if (host !== "" && !localHost(host)) out.push({ start: s.start, end: s.end, detail: "a local port published on a public tunnel server" });
    }
    if (name === "ngrok" && a[0] === "tcp" && a.some((t) => DATA_PORTS.has(t.replace(/^.*:/, "")))) out.push({ start: s.start, end: s.end, detail: "a data service's port published through a tunnel" });
    // (Thirteenth round) The other tunnel clients (Expose, localtunnel, zrok, LocalXpose), and ngrok's http tunnels, publishing a
    // data service's port: `expose share http://localhost:9200`, `lt --port 5432`, `zrok share public localhost:9200`.
    const viaNpx = name === "npx" || name === "bunx";
    const client = viaNpx ? (a[0] ?? "").replace(/@.*$/, "") : name;
    const b = viaNpx ? a.slice(1) : a;
    if ((client === "expose" || client === "zrok" || client === "loclx" || client === "lt" || client === "localtunnel" || (client === "ngrok" && b[0] !== "tcp")) && b.some((t, k) => DATA_PORTS.has(t.replace(/^(?:[a-z]{2,8}:\/\/)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])?:?(\d{2,5})\/?$/, "$1")) && (/\d$|\/$/.test(t)) && (k === 0 || !/^--?(?:region|subdomain|server|host|name|auth)/.test(b[k - 1] ?? "")))) out.push({ start: s.start, end: s.end, detail: "a data service's port published through a tunnel" });
    if (name === "cloudflared" && a.some((t) => /^tcp:\/\/[^/\s]{1,200}:(\d{2,5})$/.test(t) && DATA_PORTS.has(t.replace(/^.*:/, "")))) out.push({ start: s.start, end: s.end, detail: "a data service's port published through a tunnel" });
    // (Sixteenth round) Packetriot's client publishing a data service's port, and any tunnel client publishing a service
    // of another machine on a corporate private network (10/8, 172.16/12): `ngrok http 10.0.4.12:8443`, `pktriot tcp 1521
    // --destination 10.20.4.15`, `cloudflared tunnel --url http://172.20.1.9:8080`. Its own machine (`localhost:3000`)
    // and a home network's device (192.168/16: a home-lab dashboard) pass.
    // (Seventeenth round) Any program in the tunnel clients' grammar — a subcommand naming the protocol, then a data
    // service's port (`<client> tcp 5432`, `<client> tls 6379`) — publishes it, whatever the client is called; the
    // programs that forward or filter ports on the machine or its private network are not tunnel clients.
    if (!TUNNEL_CLIENTS.has(client) && !LOCAL_PORT_TOOLS.has(client) && /^(?:tcp|tls)$/.test(b[0] ?? "") && DATA_PORTS.has((b[1] ?? "").replace(/^(?:localhost|127\.0\.0\.1)?:/, ""))) out.push({ start: s.start, end: s.end, detail: "a data service's port published through a tunnel" });
    if (name === "pktriot" && a[0] === "tcp" && DATA_PORTS.has(a[1] ?? "")) out.push({ start: s.start, end: s.end, detail: "a data service's port published through a tunnel" });
    else if (TUNNEL_CLIENTS.has(client) && b.some((t) => INTERNAL_TARGET.test(t))) out.push({ start: s.start, end: s.end, detail: "another internal machine's service published through a tunnel" });
  }
  return out;
}

/** Programs that take `tcp <port>` but forward or filter on this machine or its private network. */
const LOCAL_PORT_TOOLS = new Set(["tailscale", "kubectl", "oc", "docker", "podman", "nc", "ncat", "socat", "nmap", "ufw", "iptables", "firewall-cmd", "ss", "netstat", "lsof", "fuser", "nft", "semanage", "gcloud", "az", "aws", "flyctl", "fly", "mosh", "telnet"]);
const TUNNEL_CLIENTS = new Set(["ngrok", "cloudflared", "pktriot", "zrok", "expose", "loclx", "lt", "localtunnel", "bore"]);
/** An address on a corporate private network, bare or as a URL or `--opt=value`: `10.0.4.12:8443`, `http://172.20.1.9`. */
const INTERNAL_TARGET = /^(?:--?[a-z-]{1,20}=)?(?:[a-z]{2,8}:\/\/)?(?:10\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01]))\.\d{1,3}\.\d{1,3}(?::\d{2,5})?\/?$/;

/** ssh options that take a value. */
const SSH_VALUE_OPTIONS = /^-[BbcDEeFIiJLlmOoPpQRSWw]$/;

function destination(a: string[]): string | null {
  for (let i = 0; i < a.length; i++) {
    const t = a[i] as string;
    if (SSH_VALUE_OPTIONS.test(t)) {
      i++;
      continue;
    }
    if (t.startsWith("-")) continue;
    const host = t.replace(/^ssh:\/\//, "").replace(/^[^@]{0,100}@/, "").replace(/[:/].*$/, "").toLowerCase();
    return host === "" ? null : host;
  }
  return null;
}

/** A dump of the whole environment, as a command of its own (`env`, `env | base64`, `printenv`, `set`, `export -p`). */
const ENV_DUMP = /(?:^|[\s|;&(`])(?:env|printenv|set|export\s{1,4}-p|cat\s{1,4}\/proc\/(?:self|\d{1,7}|\$\$)\/environ|Get-ChildItem\s{1,4}env:|gci\s{1,4}env:|dir\s{1,4}env:)(?=\s{0,4}(?:$|[|;&)`]))/;
/** Substitutions: `$(…)` and backticks (no nesting needed for a dump). */
const SUBSTITUTION = /\$\(([^()]{1,200})\)|`([^`]{1,200})`/g;
/** A host a command names: a URL's host, `-h host`, `--host host`, `user@host`, or a bare name with a dot after nc/telnet. */
const URL_HOST = /\b(?:https?|grpcs?|mqtts?|wss?|tcp|smtps?|ftp):\/\/(?:[^@/\s"']{1,100}@)?([A-Za-z0-9.-]{1,253})/gi;

function remoteHosts(text: string, words: string[]): string[] {
  const out: string[] = [];
  URL_HOST.lastIndex = 0;
  for (let m, n = 0; (m = URL_HOST.exec(text)) !== null && n < 16; n++) out.push((m[1] as string).toLowerCase());
  for (let i = 0; i < words.length; i++) {
    const w = unquote(words[i] as string);
    if ((w === "-h" || w === "--host") && words[i + 1] !== undefined) out.push(unquote(words[i + 1] as string).toLowerCase());
  }
  return out.filter((h) => h.includes(".") && !localHost(h));
}

/** Programs that send what they are given to a host: a pipe into one carries the piped text. */
const SENDERS = new Set(["curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "ssh", "mosquitto_pub", "mqtt", "mqttx", "http", "https", "xh", "openssl", "sendmail", "mail", "mailx", "mutt", "swaks"]);

function environmentOut(v: string, segs: Segment[]): ChannelFinding[] {
  const out: ChannelFinding[] = [];
  // A dump substituted into a line that names a host off this machine.
  SUBSTITUTION.lastIndex = 0;
  for (let m, n = 0; (m = SUBSTITUTION.exec(v)) !== null && n < 16; n++) {
    const inner = (m[1] ?? m[2]) as string;
    if (!ENV_DUMP.test(" " + inner)) continue;
    if (remoteHosts(v, v.split(/\s+/, 256)).length > 0) {
      out.push({ start: m.index, end: m.index + m[0].length, detail: "the environment sent to a host" });
      break;
    }
  }
  // A dump piped into a sender to a host off this machine.
  for (let i = 1; i < segs.length; i++) {
    const s = segs[i] as Segment;
    if (!s.piped || !ENV_DUMP.test(" " + (s.before.trim().split("|").pop() ?? "").trim())) continue;
    const { name } = program(s.words);
    if (!SENDERS.has(name)) continue;
    const words = s.words.map(unquote);
    const hosts = remoteHosts(v.slice(s.start, s.end), words);
    // (netcat and telnet name the host as an operand.)
    if (hosts.length === 0 && /^(?:nc|ncat|netcat|telnet)$/.test(name)) {
      const host = words.slice(1).find((t) => !t.startsWith("-") && t.includes("."));
      if (host && !localHost(host.toLowerCase())) hosts.push(host);
    }
    if (hosts.length > 0) out.push({ start: s.start, end: s.end, detail: "the environment sent to a host" });
  }
  return out;
}

/** Public MQTT brokers run for tests: anybody may subscribe to every topic. */
const PUBLIC_BROKERS = /^(?:test\.mosquitto\.org|broker\.hivemq\.com|broker\.emqx\.io|mqtt\.eclipseprojects\.io|mqtt\.eclipse\.org|iot\.eclipse\.org|public\.mqtthq\.com|broker\.mqttdashboard\.com|test\.mqtt\.org|mqtt\.flespi\.io|public\.cloud\.shiftr\.io|broker\.emqx\.com|mqtt\.fluux\.io)$/i;
/** A data file: a dump, an export, a backup, a spreadsheet, keys, the environment file, credential folders. */
export const DATA_FILE = /(?:\.(?:sql|dump|bak|db|sqlite3?|csv|tsv|xlsx?|parquet|jsonl|pem|key|p12|pfx|kdbx|env)(?:\.(?:gz|bz2|xz|zst|zip|gpg))?$|(?:^|[/_.-])(?:backups?|dumps?|exports?|payroll|salar(?:y|ies)|customers?|contacts|leads|users|passwords?|secrets?|credentials?|invoices?|hr)(?:[/_.-]|$)|(?:^|\/)\.(?:ssh|aws|gnupg|kube|docker|azure|env)(?:\/|$)|^\/var\/(?:backups|lib\/(?:postgresql|mysql|mongodb))\/)/i;

function otherProtocols(v: string, segs: Segment[]): ChannelFinding[] {
  const out: ChannelFinding[] = [];
  for (const s of segs) {
    const { name, at } = program(s.words);
    const a = s.words.slice(at + 1).map(unquote);
    if (name === "curl") {
      const url = a.find((t) => /^smtps?:\/\//i.test(t)) ?? (a.includes("--url") ? a[a.indexOf("--url") + 1] : undefined);
      if (url !== undefined && /^smtps?:\/\//i.test(url)) {
        const host = url.replace(/^smtps?:\/\//i, "").replace(/[:/].*$/, "").toLowerCase();
        const t = a.findIndex((x) => x === "-T" || x === "--upload-file");
        const file = t >= 0 ? (a[t + 1] ?? "") : a.find((x) => x.startsWith("--upload-file="))?.slice(14) ?? "";
        const fromPipe = (file === "-" || file === "") && s.piped;
        if (!localHost(host) && !/^(?:mailhog|mailpit|mailcatcher|smtp4dev|maildev)$/i.test(host) && ((file !== "" && file !== "-" && DATA_FILE.test(file)) || (fromPipe && DATA_FILE.test(s.before)))) out.push({ start: s.start, end: s.end, detail: "a data file mailed over SMTP" });
      }
    }
    if (name === "mosquitto_pub" || ((name === "mqtt" || name === "mqttx") && a[0] === "pub")) {
      const h = a.findIndex((x) => x === "-h" || x === "--host");
      const url = a.find((x) => /^mqtts?:\/\//i.test(x));
      const host = (h >= 0 ? (a[h + 1] ?? "") : url ? url.replace(/^mqtts?:\/\/(?:[^@/]{1,100}@)?/i, "").replace(/[:/].*$/, "") : "").toLowerCase();
      const data = a.some((x) => x === "-s" || x === "-l" || x === "--stdin-file" || x === "--stdin-line" || x === "-f" || x === "--file") || /\$\(|`/.test(v.slice(s.start, s.end));
      if (PUBLIC_BROKERS.test(host) && data) out.push({ start: s.start, end: s.end, detail: "data published to a public MQTT broker" });
    }
  }
  return out;
}

/** ACLs that hand an object to another account's bucket or to everyone. */
const HANDOFF_ACL = /^(?:bucket-owner-full-control|bucket-owner-read|public-read|public-read-write|authenticated-read)$/i;

function handedOffUploads(segs: Segment[]): ChannelFinding[] {
  const out: ChannelFinding[] = [];
  for (const s of segs) {
    const { name, at } = program(s.words);
    const a = s.words.slice(at + 1).map(unquote);
    if (name === "aws" && a[0] === "s3" && /^(?:cp|mv|sync)$/.test(a[1] ?? "")) {
      const acl = a.indexOf("--acl");
      const aclValue = acl >= 0 ? a[acl + 1] : a.find((x) => x.startsWith("--acl="))?.slice(6);
      const grants = a.indexOf("--grants");
      const grant = grants >= 0 && a.slice(grants + 1, grants + 4).some((x) => /AllUsers|AuthenticatedUsers|emailaddress=|id=/i.test(x));
      if (!(aclValue !== undefined && HANDOFF_ACL.test(aclValue)) && !grant) continue;
      const ops = operands(a.slice(2));
      const [src, dst] = ops;
      if (src === undefined || dst === undefined || !/^s3:\/\//i.test(dst) || /^s3:\/\//i.test(src)) continue;
      // (Fifteenth round) A document marked sealed, unredacted or privileged, too (exfil-marked.ts).
      if (DATA_FILE.test(src) || markedDocument(src) || (src === "-" && s.piped && /\b(?:pg_dump|mysqldump|mongodump|tar|zip|cat)\b/.test(s.before))) out.push({ start: s.start, end: s.end, detail: "data handed to another account's or a public bucket" });
    }
    if (name === "gsutil" && a.includes("cp") && a.some((x, i) => x === "-a" && /^(?:public-read|public-read-write|bucket-owner-full-control|authenticated-read)$/i.test(a[i + 1] ?? ""))) {
      const ops = operands(a.slice(a.indexOf("cp") + 1));
      const [src, dst] = ops;
      if (src !== undefined && dst !== undefined && /^gs:\/\//i.test(dst) && (DATA_FILE.test(src) || markedDocument(src))) out.push({ start: s.start, end: s.end, detail: "data handed to another account's or a public bucket" });
    }
  }
  return out;
}

/** aws/gsutil options that take no value. */
const FLAGS = new Set(["--recursive", "--quiet", "--dryrun", "--delete", "--only-show-errors", "--no-progress", "--follow-symlinks", "--no-follow-symlinks", "--exact-timestamps", "--size-only", "--no-guess-mime-type", "--force", "--debug", "--no-verify-ssl", "--no-paginate", "--no-sign-request", "-r", "-R", "-n", "-e", "-c", "-v", "-J", "-Z"]);

function operands(a: string[]): string[] {
  const out: string[] = [];
  for (let k = 0; k < a.length && out.length < 8; k++) {
    const w = a[k] as string;
    if (w.startsWith("-") && w !== "-") {
      if (!FLAGS.has(w) && !w.includes("=")) k++;
      continue;
    }
    out.push(w);
  }
  return out;
}

/**
 * (Sixteenth round, ATT&CK T1567 and T1048) Programs whose whole purpose is to hand a file to whoever holds a code or a
 * link: croc, magic-wormhole, ffsend (Send), transferwee (WeTransfer), MEGA's megaput / mega-put, and publishing to
 * IPFS (`ipfs add`, web3.storage's `w3 up`: anyone with the content id reads it). A build artefact, slides or an image
 * sent so pass; a data file (a dump, an export, a key, a credential directory) does not.
 */
const FILE_SENDERS: Record<string, RegExp | null> = { croc: /^send$/, wormhole: /^send$/, ffsend: /^(?:upload|up|u)$/, transferwee: /^upload$/, megaput: null, "mega-put": null, ipfs: /^add$/, w3: /^up$/ };

const DOCUMENT = /\.(?:pdf|md|txt|html?|docx?|pptx?|odt|odp|png|jpe?g|gif|svg|webp|mp4|mov|webm|mp3)$/i;
const CREDENTIAL_DIR = /(?:^|\/)\.(?:ssh|aws|gnupg|kube|docker|azure)\//;

function fileSenders(segs: Segment[]): ChannelFinding[] {
  const out: ChannelFinding[] = [];
  for (const s of segs) {
    const { name, at } = program(s.words);
    const verb = FILE_SENDERS[name];
    if (verb === undefined) continue;
    let a = s.words.slice(at + 1).map(unquote);
    if (verb !== null) {
      // The verb is the first word that is not an option (`croc --yes send`, `ipfs --offline add` is local: skipped).
      const i = a.findIndex((t) => !t.startsWith("-"));
      if (i < 0 || !verb.test(a[i] as string) || (name === "ipfs" && a.slice(0, i).includes("--offline"))) continue;
      a = a.slice(i + 1);
    }
    // A document or a medium named for its subject (`hr/handbook.pdf`, `users-guide.pdf`) is no data file; one in a
    // credential directory still is.
    const file = a.find((t) => !t.startsWith("-") && t.length <= 300 && DATA_FILE.test(t) && (!DOCUMENT.test(t) || CREDENTIAL_DIR.test(t)));
    if (file !== undefined) out.push({ start: s.start, end: s.end, detail: `a data file (${file}) handed to ${name}` });
  }
  return out;
}

/** Every ninth-round outlet in one command line. */
export function commandOutlets(v: string, ctx: ChannelContext): ChannelFinding[] {
  if (v.length > 65536) return [];
  // One regex per family first: most strings (prose, paths, ordinary commands) name none of their programs.
  const tunnel = TUNNEL_GATE.test(v);
  const environment = ENV_GATE.test(v);
  const protocol = PROTOCOL_GATE.test(v);
  const bucket = BUCKET_GATE.test(v);
  const sender = SENDER_GATE.test(v);
  if (!tunnel && !environment && !protocol && !bucket && !sender) return [];
  const segs = segments(v);
  return [...(tunnel ? tunnels(segs, ctx) : []), ...(environment ? environmentOut(v, segs) : []), ...(protocol ? otherProtocols(v, segs) : []), ...(bucket ? handedOffUploads(segs) : []), ...(sender ? fileSenders(segs) : [])];
}

const SENDER_GATE = /\b(?:croc|wormhole|ffsend|transferwee|megaput|mega-put|ipfs|w3)\s/;

const TUNNEL_GATE = /\b(?:ssh|autossh|bore|ngrok|cloudflared|expose|zrok|loclx|lt|localtunnel|pktriot)\b|\s(?:tcp|tls)\s{1,4}(?:localhost:|127\.0\.0\.1:)?\d{4,5}\b/;
const ENV_GATE = /\b(?:env|printenv|set|export|environ)\b/i;
const PROTOCOL_GATE = /smtps?:\/\/|\bmosquitto_pub\b|\bmqttx?\s/i;
const BUCKET_GATE = /--acl|--grants|\s-a\s/;
