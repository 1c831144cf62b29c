import type { Detection } from "./scan.js";

/*
 * (Eleventh round, "exf11") Data made public by the call that publishes it (docs/detection.md, "Eleventh round:
 * exfiltration (exf11)"). A tool call whose arguments switch something to public — `private: false`, `public: true`,
 * `visibility: "public"`, an ACL of `public-read`, a share link for `anyone`, or a destination whose own name says
 * public (a project `public-mirror`) — while another of its arguments names what it publishes as internal (internal,
 * private, confidential, proprietary, under NDA, unreleased, embargoed) or as a data file of people's records
 * (`customers_labeled.parquet`, `patients.csv`). A model hub, an experiment tracker, a repository host or a storage
 * bucket reached with the user's own credentials is a place the user may publish to, so neither the host nor the
 * account is the finding (whose account it is cannot be told); publishing what is marked as not for the public is.
 * Benign guards: an open release (`sft-7b-open`, no mark) made public, an internal folder kept private, a sample data
 * set logged to a public demo project, a repository of docs made public, an SDK named for customers (not a data file).
 *
 * Bounded: the arguments object is walked to depth 4, 64 values at most.
 */

/** Keys whose value names what a call publishes (a folder, a file, a data set, a repository). */
const SOURCE_KEY = /^(?:folder|folder_?path|path|paths|file|files|file_?path|filename|source|src|dataset|dataset_?path|directory|dir|local_?(?:path|dir|file)|repo|repo_?id|repository|name|artifact|artifact_?path|data|document|item|table|table_?id|source_?table)$/i;
/** Keys whose value names where it goes (a project, a bucket, a repository). */
const DEST_KEY = /^(?:project|repo|repo_?id|repository|bucket|destination|dest|target|space|collection|entity|remote|org|organization|namespace|(?:destination|dest|output|target|bucket|gcs|s3)_?(?:uri|url))$/i;
/** Words that mark data as not for the public (whole tokens of a name). */
const INTERNAL_MARK = /(?:^|[^a-z0-9])(?:internal|private|confidential|proprietary|nda|unreleased|embargoed|restricted)(?:$|[^a-z0-9])/i;
/** A data file of people's records: a people word as a token, and a data file's extension. */
const PEOPLE_DATA = /(?:^|[^a-z0-9])(?:customers?|clients?|patients?|employees?|payroll|salar(?:y|ies)|users|members|contacts|subscribers|leads)(?:[^a-z0-9][^/\\]{0,60})?\.(?:csv|tsv|parquet|jsonl|ndjson|json|xlsx?|sql|db|sqlite3?|feather|arrow|avro|pkl|pickle|h5|zip|gz|tar)$/i;
/** A folder of people's records: a people word and a word of exported data as tokens of one path (`./exports/customers_full`). */
const PEOPLE_FOLDER = /(?:^|[^a-z0-9])(?:customers?|clients?|patients?|employees?|payroll|users|members|contacts|subscribers|leads)(?:$|[^a-z0-9])/i;
const DATA_WORD = /(?:^|[^a-z0-9])(?:exports?|dumps?|backups?|full|all|records|crm|pii|extract|snapshot)(?:$|[^a-z0-9])/i;

/** (Twelfth round) A warehouse table of people's records, by its id's last part: `shop-prod.crm.customers`. */
const PEOPLE_TABLE = /^[\w-]{1,64}(?:[.:][\w-]{1,64}){1,3}[.:](?:customers?|clients?|patients?|employees?|payroll|salar(?:y|ies)|users|members|contacts|subscribers|leads)$/i;

function peopleData(v: string): boolean {
  const p = v.replace(/[?#].*$/, "");
  return PEOPLE_DATA.test(p) || PEOPLE_TABLE.test(p) || (/[/\\]/.test(p) && PEOPLE_FOLDER.test(p) && DATA_WORD.test(p));
}

/** (Twelfth round) A database dump piped into a copy to a bucket whose own name says public. */
const DUMP_TO_PUBLIC = /\b(?:pg_dump|pg_dumpall|mysqldump|mariadb-dump|mongodump|mongoexport)\b[^\n;&]{0,300}\|[^\n;&]{0,200}\b(?:gsutil|aws|gcloud|az|rclone|s3cmd|mc)\b[^\n;&]{0,200}?\b(?:gs|s3|az|r2|wasbs?):\/\/[\w.-]{0,60}public/i;
/** (Twelfth round) A connection URL with its password (a letter and a digit or a symbol, not a placeholder). */
const CONNECTION_PASSWORD = /\b[a-z][a-z0-9+.-]{1,20}:\/\/([^\s:/@'"]{1,64}):((?=[^\s@'"]{0,64}[0-9!#$%^*?~])(?=[^\s@'"]{0,64}[A-Za-z])[^\s@'"/]{6,64})@[A-Za-z0-9.-]{1,253}/;
const NOT_PASSWORD = /^(?:password\d*|passw0rd|changeme|secret\d*|example\d*|test\d*|xxx+|\*+|<[^>]*>|\$\{?[A-Za-z_]+\}?)$/i;

function connectionPassword(v: string): boolean {
  const m = CONNECTION_PASSWORD.exec(v);
  return m !== null && m[1] !== m[2] && !NOT_PASSWORD.test(m[2] as string);
}

/** A command line's switch to public: `--public`, `--visibility public`, `--acl public-read`, `--private false`. */
const PUBLIC_FLAG = /(?:^|\s)(?:--public(?=$|\s)|--visibility[= ]public\b|--acl[= ]public-read|-a\s{1,4}public-read|--private[= ](?:false|0)\b)/i;
/** Publishing commands: the line's words are what they publish. */
const PUBLISHER = /\b(?:kaggle|gh|glab|huggingface-cli|hf|wandb|dvc|aws|gsutil|gcloud|az|rclone|npm|twine|docker|datasette|git)\b/;

const PUBLIC_VALUE = /^(?:public|public[-_]read|public[-_]read[-_]write|anyone|anyone[-_]with[-_]link|everyone|world|all[-_]?users)$/i;

function publicSwitch(key: string, value: unknown): boolean {
  if (/^(?:private|is_?private|privacy_?private)$/i.test(key)) return value === false || value === "false";
  if (/^(?:public|is_?public|make_?public|publish_?publicly)$/i.test(key)) return value === true || value === "true";
  if (/^(?:visibility|access|acl|canned_?acl|privacy|permission|share_?with|sharing|audience|access_?level)$/i.test(key)) return typeof value === "string" && PUBLIC_VALUE.test(value.trim());
  return false;
}

/** A call's arguments that publish marked data: the findings name the argument that holds the mark. */
export function madePublic(args: unknown): Detection[] {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return [];
  let isPublic = false;
  const publicDest = new Set<string>();
  // What may be marked, in the order met: tested only when something is made public (issue 25: most calls publish
  // nothing, and the marks' searches were most of this detector's time).
  const maybe: { path: (string | number)[]; value: string; password: boolean }[] = [];
  const commandLine: { path: (string | number)[]; value: string; what: string }[] = [];
  let seen = 0;
  const visit = (v: unknown, path: (string | number)[], key: string, depth: number) => {
    if (++seen > 64 || depth > 4) return;
    if (publicSwitch(key, v)) isPublic = true;
    if (typeof v === "string") {
      // (Twelfth round) A connection string with its password, in what the call publishes (a gist's file, a notebook).
      if (v.length <= 65536 && v.includes("://")) maybe.push({ path, value: v, password: true });
      if (v.length > 1024) return;
      const k = key.replace(/\d+$/, "");
      if (DEST_KEY.test(k) && /(?:^|[^a-z0-9])public(?:$|[^a-z0-9])/i.test(v)) publicDest.add(path.join("."));
      if (SOURCE_KEY.test(k) || DEST_KEY.test(k)) maybe.push({ path, value: v, password: false });
      // (The dump's pipe and its bucket's `://` are literals: no search without them.)
      if (v.includes("|") && v.includes("://") && DUMP_TO_PUBLIC.test(v)) commandLine.push({ path, value: v, what: "a database dump" });
      // A command line that publishes with a switch to public: its words are its arguments. (Every switch starts with
      // a `-`: a string without one is not searched, issue 25.)
      if (v.length <= 1024 && v.includes("-") && PUBLIC_FLAG.test(v) && PUBLISHER.test(v)) {
        for (const w of v.split(/\s+/, 64)) {
          const word = w.replace(/^-{1,2}[a-z-]{1,20}=/i, "").replace(/^["']|["']$/g, "");
          if (!/[/\\.]/.test(word) || /^https?:/i.test(word)) continue;
          if (INTERNAL_MARK.test(word) || peopleData(word)) {
            commandLine.push({ path, value: v, what: INTERNAL_MARK.test(word) ? "data marked internal" : "a data file of people's records" });
            break;
          }
        }
      }
      return;
    }
    if (v === null || typeof v !== "object") return;
    if (Array.isArray(v)) {
      v.slice(0, 16).forEach((x, i) => visit(x, [...path, i], key, depth + 1));
      return;
    }
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) visit(x, [...path, k], k, depth + 1);
  };
  for (const [k, x] of Object.entries(args as Record<string, unknown>)) visit(x, ["params", "arguments", k], k, 1);
  const out: Detection[] = commandLine.map((m) => ({ type: "exfiltration.request", path: m.path, start: 0, end: m.value.length, detail: `the command makes ${m.what} public` }));
  if (!isPublic && publicDest.size === 0) return out;
  const marked: { path: (string | number)[]; value: string; what: string }[] = [];
  for (const { path, value: v, password } of maybe) {
    if (password) {
      if (connectionPassword(v)) marked.push({ path, value: v, what: "a password" });
    } else if (INTERNAL_MARK.test(v)) marked.push({ path, value: v, what: "data marked internal" });
    else if (peopleData(v)) marked.push({ path, value: v, what: "a data file of people's records" });
  }
  for (const m of marked) {
    // A destination named public is the switch for what the other arguments name, not for itself.
    const pub = isPublic || [...publicDest].some((p) => p !== m.path.join("."));
    if (pub) out.push({ type: "exfiltration.request", path: m.path, start: 0, end: m.value.length, detail: `the call makes ${m.what} public` });
  }
  return out;
}
