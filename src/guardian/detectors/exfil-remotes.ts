import type { Detection, StringSite } from "./scan.js";
import { personalPayload } from "./exfil-sinks.js";
import { sensitivePayload } from "./exfil-relays.js";
import { FORGES } from "./exfil-channels.js";

/*
 * (Twenty-third round, "exf23") Places a call itself opens to others (docs/detection.md, "Twenty-third round: places a
 * call opens (exf23)").
 *
 * - A repository pushed to a destination the same call names for the first time — a remote added on the same command
 *   line, or a push tool's remote given as a URL — when what is pushed is data: a table or a dump staged on that line,
 *   or a repository whose own path says it is an export or a dump, to an account on a public forge or a bare address.
 *   A configured remote (`origin`) is the project's, a company's own git server is the company's; an account on a
 *   public forge written into the call is whoever's account it names, which the call cannot show is the user's.
 * - What a call makes readable by anyone (an ACL of `public-read`, a link for anyone) judged by its content as well as
 *   its name: a person's record, finances or location, credentials or confidential text in the object's body.
 * - A data file uploaded to an anonymous FTP account: such an account is anybody's, what is put there anybody may take.
 *
 * Bounded: command lines of 16 KB at most, 16 remotes and pushes each; argument objects to depth 4, 64 values.
 */

/** A table, a database or its dump, compressed or not (a template or a sample is not an export). */
const STAGED_DATA = /\.(?:csv|tsv|xlsx?|xlsm|ods|sql|dump|bak|db|sqlite3?|mdb|accdb|parquet|jsonl|ndjson|vcf)(?:\.(?:gz|bz2|xz|zst|zip|7z|gpg))?$/i;
const NOT_DATA = /(?:^|[/\\_. -])(?:templates?|samples?|examples?|blank|empty|schema|mock|dummy|demo|fixtures?)(?:[/\\_. -]|$)/i;
/** A path or a repository named as data taken out of a system, in a few languages: `…/crm-export`, `db_dump`. */
const EXPORT_NAME = /(?:^|[/\\_. -])(?:exports?|dumps?|extracts?|exportaci[oó]n|exporta[cç][aã]o|esportazione|eksport|exporte|экспорт|vienti)(?:[/\\_. -]|$)/i;

/** The host of a git remote (`https://host/…`, `ssh://git@host/…`, `git@host:path`) when it is a public forge's or a bare address. */
export function publicRemote(remote: string): boolean {
  const url = /^(?:https?|ssh|git):\/\/(?:[^@/\s]{1,200}@)?([^/:\s]{1,253})/i.exec(remote) ?? /^[\w.-]{1,64}@([\w.-]{1,253}):/.exec(remote);
  if (url === null) return false;
  const host = (url[1] as string).toLowerCase();
  return FORGES.test(host) || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host);
}

const REMOTE_ADD = /\bgit\s{1,4}remote\s{1,4}(?:add|set-url)\s{1,4}(?:-\S{1,20}\s{1,4}){0,3}([\w.-]{1,64})\s{1,4}(\S{1,500})/g;
const PUSH = /\bgit\s{1,4}push\b([^;&|\n]{0,300})/g;
const ADD = /\bgit\s{1,4}(?:add|stage)\b([^;&|\n]{0,1000})/g;
const CD = /(?:^|[;&|\n]\s{0,4})(?:cd|pushd)\s{1,4}(\S{1,300})/g;

function unquote(w: string): string {
  return w.replace(/^["']|["']$/g, "");
}

/** A push on a command line to a forge's remote the line adds (or a URL) of data staged on it or of a repository named as an export. */
export function pushedData(v: string): { start: number; end: number; detail: string }[] {
  if (v.length > 16384 || !v.includes("push")) return [];
  const added = new Map<string, string>();
  REMOTE_ADD.lastIndex = 0;
  for (let m, n = 0; (m = REMOTE_ADD.exec(v)) !== null && n < 16; n++) added.set(m[1] as string, unquote(m[2] as string));
  let data = false;
  ADD.lastIndex = 0;
  for (let m, n = 0; (m = ADD.exec(v)) !== null && n < 16 && !data; n++) data = (m[1] as string).trim().split(/\s+/, 64).map(unquote).some((w) => STAGED_DATA.test(w) && !NOT_DATA.test(w));
  CD.lastIndex = 0;
  for (let m, n = 0; (m = CD.exec(v)) !== null && n < 16 && !data; n++) data = exportName(unquote(m[1] as string));
  if (!data) return [];
  const out: { start: number; end: number; detail: string }[] = [];
  PUSH.lastIndex = 0;
  for (let m, n = 0; (m = PUSH.exec(v)) !== null && n < 16; n++) {
    const target = (m[1] as string).trim().split(/\s+/, 16).map(unquote).find((a) => a !== "" && !a.startsWith("-"));
    if (target === undefined || !publicRemote(added.get(target) ?? target)) continue;
    out.push({ start: m.index, end: m.index + m[0].length, detail: "data pushed to a remote the command names for the first time" });
  }
  return out;
}

function exportName(path: string): boolean {
  return EXPORT_NAME.test(path) && !NOT_DATA.test(path);
}

const REMOTE_KEY = /^(?:remote_?url|remote|url|destination|dest|target|to|push_?url|repository_?url|repo_?url)$/i;
const REPO_KEY = /^(?:repo|repo_?path|repository|path|local_?path|directory|dir|cwd|working_?dir|source)$/i;
const PUBLIC_ACL = /^(?:public|public[-_ ]?read|public[-_ ]?read[-_ ]?write|anyone|anyone[-_ ]?with[-_ ]?(?:the[-_ ]?)?link|everyone|all[-_ ]?users)$/i;
const PUBLIC_KEY = /^(?:acl|canned_?acl|access|visibility|permission|sharing|audience|access_?level|type|grantee_?type|permission_?type|link_?type|scope)$/i;
const CONTENT_KEY = /^(?:body|content|contents|data|text|values|rows|records|payload|object|file_?content|object_?body)$/i;
const ANONYMOUS_FTP = /^ftps?:\/\/(?:(?:anonymous|ftp|guest)(?::[^@/\s]{0,64})?@)?[^/@\s]{1,253}(?:\/|$)/i;
const UPLOAD_TOOL = /(?:^|[_-])(?:upload|put|send|push|copy|transfer|store|publish)(?:$|[_-])|^(?:upload|put|send|push)/i;
const LOCAL_FILE_KEY = /^(?:path|file|file_?path|local_?path|local_?file|source|src|filename)$/i;

/** The arguments of a tool call, walked: each string with its key and path (64 values, depth 4). */
function strings(args: unknown): { key: string; path: (string | number)[]; value: unknown }[] {
  const out: { key: string; path: (string | number)[]; value: unknown }[] = [];
  const visit = (v: unknown, path: (string | number)[], key: string, depth: number) => {
    if (out.length >= 64 || depth > 4) return;
    out.push({ key, path, value: v });
    if (v === null || typeof v !== "object") return;
    if (Array.isArray(v)) return;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) visit(x, [...path, k], k, depth + 1);
  };
  if (args !== null && typeof args === "object" && !Array.isArray(args)) for (const [k, x] of Object.entries(args as Record<string, unknown>)) visit(x, ["params", "arguments", k], k, 1);
  return out;
}

function textOf(v: unknown): string | null {
  if (typeof v === "string") return v.length <= 65536 ? v : v.slice(0, 65536);
  if (v !== null && typeof v === "object") {
    try {
      const s = JSON.stringify(v);
      return s.length <= 65536 ? s : s.slice(0, 65536);
    } catch {
      return null;
    }
  }
  return null;
}

/** A tool call's arguments: a push of an export to a URL, public content, an upload to an anonymous FTP account. */
export function openedPlaces(tool: string, args: unknown, sites?: readonly StringSite[]): Detection[] {
  // Gated on what is rare before anything is walked: a push tool, a short value that says public, an FTP URL.
  const push = tool.includes("push");
  if (sites !== undefined && !push) {
    let open = false;
    for (const site of sites) {
      const v = site.value;
      if ((v.length <= 24 && v.length >= 3 && PUBLIC_ACL.test(v.trim())) || (v.length >= 6 && (v.charCodeAt(0) | 32) === 102 && /^ftps?:/i.test(v))) {
        open = true;
        break;
      }
    }
    if (!open) return [];
  }
  const all = strings(args);
  if (all.length === 0) return [];
  const out: Detection[] = [];
  const str = (e: { value: unknown }) => (typeof e.value === "string" ? e.value : "");
  // A push tool handed the repository of an export and a remote as a URL.
  if (push) {
    const remote = all.find((e) => REMOTE_KEY.test(e.key) && str(e).length <= 2048 && publicRemote(str(e)));
    const repo = all.find((e) => REPO_KEY.test(e.key) && str(e).length <= 300 && exportName(str(e)));
    if (remote && repo) out.push({ type: "exfiltration.request", path: remote.path, start: 0, end: str(remote).length, detail: "an export's repository pushed to a remote the call names" });
  }
  // What is made readable by anyone, judged by its content.
  if (all.some((e) => PUBLIC_KEY.test(e.key) && typeof e.value === "string" && PUBLIC_ACL.test(e.value.trim()))) {
    for (const e of all) {
      if (!CONTENT_KEY.test(e.key)) continue;
      const t = textOf(e.value);
      if (t === null || t.length < 24) continue;
      const what = personalPayload(t) ?? sensitivePayload(t);
      if (what === null) continue;
      out.push({ type: "exfiltration.request", path: e.path, start: 0, end: typeof e.value === "string" ? e.value.length : 0, detail: `the call makes ${what} readable by anyone` });
      break;
    }
  }
  // A data file to an anonymous FTP account.
  if (UPLOAD_TOOL.test(tool)) {
    const ftp = all.find((e) => ANONYMOUS_FTP.test(str(e)) && str(e).length <= 2048);
    if (ftp) {
      const file = all.find((e) => e !== ftp && LOCAL_FILE_KEY.test(e.key) && str(e).length <= 1024 && !NOT_DATA.test(str(e)) && (STAGED_DATA.test(str(e)) || exportName(str(e))));
      const named = STAGED_DATA.test(str(ftp).replace(/[?#].*$/, "")) && !NOT_DATA.test(str(ftp));
      if (file || named) out.push({ type: "exfiltration.request", path: ftp.path, start: 0, end: str(ftp).length, detail: "a data file uploaded to an anonymous FTP account" });
    }
  }
  return out;
}

/** (For sites.) Command lines in a tool call's arguments that push data to a remote they name. */
export function pushedDataIn(sites: readonly StringSite[]): Detection[] {
  const out: Detection[] = [];
  for (const site of sites) {
    if (site.path[0] !== "params" || site.path[1] !== "arguments" || !site.value.includes("git")) continue;
    for (const f of pushedData(site.value)) out.push({ type: "exfiltration.request", path: site.path, start: f.start, end: f.end, detail: f.detail });
  }
  return out;
}
