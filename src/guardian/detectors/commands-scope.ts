/*
 * (Twelfth round, "cps12") Commands judged by the scope of what they destroy or open, and by the command lines other
 * programs run for them (docs/detection.md, "Twelfth round: what a statement's scope destroys, commands other
 * programs run"). Each check reads a resolved command's program and words (commands.ts resolves `sudo` first), or a
 * SQL statement's text (a SQL tool's, a database client's, one handed to another agent):
 *
 * - **SQL without a scope**: a `DELETE FROM t` with no `WHERE` (every row of the table), a whole database dropped
 *   that the same text does not create again (a reset of a local database), every table the catalogue lists
 *   destroyed by a loop of dynamic SQL (`FOR r IN SELECT tablename FROM pg_tables … EXECUTE 'TRUNCATE ' || …`,
 *   `sp_MSforeachtable`), and a file written by the database server where a web server runs it
 *   (`SELECT '<?php …' INTO OUTFILE '/var/www/…/x.php'`: a web shell). Tables and databases named as test, scratch,
 *   temporary, staging or cache data pass, and so does every statement with a `WHERE`;
 * - **a command line another program runs**: ssh's `-o ProxyCommand=…`, `LocalCommand=…` or `KnownHostsCommand=…`
 *   (ssh hands it to a shell) is judged as a line of its own; an ordinary jump (`ssh -W %h:%p bastion`,
 *   `cloudflared access ssh`) finds nothing there;
 * - **the host entered from a container**: `nsenter` into PID 1's mount namespace (`-t 1 -m`, `--target 1 --all`)
 *   is a root shell on the node. A container's network namespace (`-t <pid> -n`) passes;
 * - **a disk erased on macOS**: `diskutil eraseDisk`, `eraseVolume`, `zeroDisk`, `randomDisk`, `secureErase`,
 *   `partitionDisk`, `apfs deleteContainer`. A stick or a card given FAT or exFAT (the `mkfs.vfat` guard of
 *   commands-benign.ts) passes;
 * - **a distributed file system's root deleted**: `hdfs dfs -rm -r` (or `hadoop fs`) of `/`, `/*`, `/user`, a URI's
 *   root; a dated folder or a job's output passes;
 * - **every user's home or a person's whole library deleted**: `rm -r` of `…/homes/*`, `/home/*`, `/Users/*`, or of
 *   the home's Documents, Pictures, Desktop, Music, Movies folders or a Photos or Music library bundle as a whole
 *   (thirteenth round: and a folder that syncs to the cloud — one app's iCloud container, `~/Library/CloudStorage/…`,
 *   Dropbox, OneDrive, Google Drive, Nextcloud — whose deletion every device then repeats). A
 *   folder inside them (`~/Documents/old-draft`) and Downloads pass;
 * - **a download written where the system starts it**: `curl -o`/`wget -O` into LaunchAgents, LaunchDaemons, a
 *   systemd unit folder, autostart or cron (`PERSIST` of commands.ts). A local file copied there passes;
 * - **a whole bucket or container opened to everyone** (gsutil, gcloud storage, aws s3api, az storage): see
 *   bucketOpened. A website's bucket and one object published pass;
 * - (commands-ninth.ts's firewall check) a flush followed only by rules that accept more is still an open firewall.
 */

import { isOption } from "./shell.js";

export interface ScopeFinding {
  type: string;
  detail: string;
}

/** Names that say a table or database holds test, scratch, temporary, staging or cache data. */
const DISPOSABLE = /(?:^|[^a-z])(?:test|tests|testing|dev|development|local|tmp|temp|scratch|sandbox|ci|e2e|fixtures?|demo|example|shadow|staging|stage|stg|cache|caches|import|imports|queue|outbox|seed|seeds)(?:[^a-z]|$)/i;
/** A name that says production (a database, host or target), shared with commands.ts. */
export const PRODUCTION = /(?:^|[^a-z])(?:prod|production|prd|live)(?:[^a-z]|$)/i;

/** SQL read: its first 64 KB. */
const MAX_SQL = 65536;
const DELETE_ALL = /\bdelete\s{1,8}from\s{1,8}((?:[`"\[]?[\w$-]{1,64}[`"\]]?\.){0,2}[`"\[]?[\w$-]{1,64}[`"\]]?)\s{0,8}(?:;|$|\)|\bcommit\b|\bend\b)/gi;
const DROP_DATABASE = /\bdrop\s{1,8}database\s{1,8}(?:if\s{1,8}exists\s{1,8})?[`"\[]?([\w$-]{1,128})[`"\]]?/gi;
const CATALOGUE = /\b(?:pg_tables|pg_class|information_schema\s{0,4}\.\s{0,4}tables|sqlite_master|sqlite_schema|sys\s{0,4}\.\s{0,4}(?:tables|objects)|all_tables|user_tables|dba_tables)\b/i;
const DYNAMIC_DESTROY = /\b(?:execute|exec|exec\s{0,4}\(|sp_executesql)\s{0,8}(?:\(\s{0,4})?(?:format\s{0,4}\(\s{0,4})?(?:N)?['"]\s{0,8}(?:truncate|drop\s{1,8}table|delete\s{1,8}from)\b/i;
const FOREACH_TABLE = /\bsp_MSforeachtable\s{0,8}(?:@command1\s{0,4}=\s{0,4})?N?['"]\s{0,8}(?:truncate|drop\s{1,8}table|delete\s{1,8}(?:from\s{1,8})?)\s{0,8}(?:table\s{1,8})?\?/i;
const OUTFILE = /\binto\s{1,8}(?:outfile|dumpfile)\s{1,8}['"]([^'"\n]{1,512})['"]/gi;
/** What a web server runs, or where it serves from. */
const SERVER_SCRIPT = /\.(?:php\d?|phtml|phar|jsp|jspx|asp|aspx|ashx|cfm|cgi|pl)$/i;
const WEB_ROOT = /(?:^|[/\\])(?:var[/\\]www|htdocs|wwwroot|public_html|inetpub|webapps)(?:[/\\]|$)/i;

/** Whether `i` starts a statement in `s` (not a word inside a string or a sentence). */
function atStatementStart(s: string, i: number): boolean {
  return /(?:^|;|\b(?:begin|then|else|do|loop|as)\b|\$\$|\()\s*$/i.test(s.slice(Math.max(0, i - 48), i).replace(/--[^\n]{0,200}$/gm, ""));
}

/** SQL with no scope (see above): what it destroys or writes, or null. `where` names the database when known. */
export function unscopedSql(sql: string, where = ""): string | null {
  const s = sql.length > MAX_SQL ? sql.slice(0, MAX_SQL) : sql;
  if (DISPOSABLE.test(where) && !PRODUCTION.test(where)) return null;
  DELETE_ALL.lastIndex = 0;
  for (let m, n = 0; (m = DELETE_ALL.exec(s)) !== null && n < 32; n++) {
    if (!atStatementStart(s, m.index)) continue;
    const table = m[1] as string;
    if (DISPOSABLE.test(table)) continue;
    return `deletes every row of ${table.slice(0, 64)} (a DELETE without WHERE)`;
  }
  DROP_DATABASE.lastIndex = 0;
  for (let m, n = 0; (m = DROP_DATABASE.exec(s)) !== null && n < 16; n++) {
    if (!atStatementStart(s, m.index)) continue;
    const db = m[1] as string;
    if (DISPOSABLE.test(db)) continue;
    // A local reset: the same database created again by the same text.
    const again = new RegExp(`\\bcreate\\s{1,8}database\\s{1,8}(?:if\\s{1,8}not\\s{1,8}exists\\s{1,8})?[\`"\\[]?${db.replace(/[$-]/g, "\\$&")}\\b`, "i");
    if (again.test(s.slice(m.index))) continue;
    return `drops the whole database ${db.slice(0, 64)}`;
  }
  if ((CATALOGUE.test(s) && DYNAMIC_DESTROY.test(s)) || FOREACH_TABLE.test(s)) return "destroys every table the catalogue lists";
  OUTFILE.lastIndex = 0;
  for (let m, n = 0; (m = OUTFILE.exec(s)) !== null && n < 8; n++) {
    const file = m[1] as string;
    if (SERVER_SCRIPT.test(file) || (WEB_ROOT.test(file) && !/\.(?:csv|tsv|txt|json|sql|xml)$/i.test(file))) return "the database server writes a file a web server runs (a web shell)";
  }
  return null;
}


/** ssh options whose value ssh hands to a shell. */
const SSH_RUNS = /^(?:ProxyCommand|LocalCommand|KnownHostsCommand)$/i;

/** The command lines ssh (scp, sftp) runs for its options: `-o ProxyCommand=…`, `-oProxyCommand …`. */
export function sshRunsLines(name: string, a: readonly string[]): string[] {
  if (name !== "ssh" && name !== "scp" && name !== "sftp") return [];
  const out: string[] = [];
  for (let i = 0; i < a.length && out.length < 4; i++) {
    const t = a[i] as string;
    let opt: string | null = null;
    if (t === "-o" && a[i + 1] !== undefined) opt = a[++i] as string;
    else if (t.startsWith("-o") && t.length > 2) opt = t.slice(2);
    if (opt === null) continue;
    const m = /^\s*([A-Za-z]{1,32})\s*(?:=\s*|\s+)([\s\S]{1,16384})$/.exec(opt);
    if (m && SSH_RUNS.test(m[1] as string)) out.push((m[2] as string).trim());
    else if (/^\s*[A-Za-z]{1,32}\s*$/.test(opt) && SSH_RUNS.test(opt.trim()) && a[i + 1] !== undefined) out.push(a[++i] as string);
  }
  return out;
}

/** `nsenter` into PID 1's mount namespace (or all of them): a shell on the host. */
function hostEntered(name: string, a: readonly string[]): string | null {
  if (name !== "nsenter") return null;
  let target: string | null = null;
  let mount = false;
  for (let i = 0; i < a.length && i < 64; i++) {
    const t = a[i] as string;
    if (t === "--") break;
    if (t === "-t" || t === "--target") target = a[++i] ?? null;
    else if (t.startsWith("--target=")) target = t.slice(9);
    else if (/^-t\d{1,10}$/.test(t)) target = t.slice(2);
    else if (t === "--mount" || t.startsWith("--mount=") || t === "--all" || t === "-a") mount = true;
    else if (/^-[a-zA-Z]{1,12}$/.test(t) && /[ma]/.test(t)) {
      mount = true;
      const at = t.indexOf("t");
      if (at > 0 && at === t.length - 1 && a[i + 1] !== undefined) target = a[++i] as string;
    } else if (!isOption(t)) break;
  }
  return target === "1" && mount ? "nsenter enters PID 1's namespaces (a shell on the host)" : null;
}

const DISKUTIL_ERASE = /^(?:erasedisk|erasevolume|zerodisk|randomdisk|secureerase|partitiondisk|reformat)$/i;
const STICK_FORMAT = /^(?:fat32|ms-dos(?:\s+fat(?:12|16|32))?|msdos|exfat|fat16)$/i;
const STICK_DISK = /^(?:\/dev\/)?r?disk[2-9]\d?$/;

/** `diskutil` erasing a disk or a volume (macOS). */
function diskutilErase(name: string, a: readonly string[]): string | null {
  if (name !== "diskutil") return null;
  const words = a.filter((t) => !isOption(t));
  const verb = (words[0] ?? "").toLowerCase();
  if (verb === "apfs" && /^(?:deletecontainer|erasevolume|deletevolume)$/i.test(words[1] ?? "")) return `diskutil apfs ${words[1]} destroys a container or volume`;
  if (!DISKUTIL_ERASE.test(verb)) return null;
  // A stick or a card given FAT or exFAT: `diskutil eraseDisk FAT32 PIBOOT MBRFormat /dev/disk4`.
  if ((verb === "erasedisk" || verb === "erasevolume") && STICK_FORMAT.test(words[1] ?? "") && words.slice(2).some((w) => STICK_DISK.test(w)) && !words.some((w) => /^(?:\/dev\/)?r?disk[01](?:s\d{1,2})?$/.test(w))) return null;
  return `diskutil ${words[0]} erases a disk`;
}

/** `hdfs dfs -rm -r /`, `hadoop fs -rm -r -skipTrash /user/*`: a distributed file system's root deleted. */
function hdfsRoot(name: string, a: readonly string[]): string | null {
  if (name !== "hdfs" && name !== "hadoop") return null;
  if (a[0] !== "dfs" && a[0] !== "fs") return null;
  const rm = a.findIndex((t) => t === "-rm" || t === "-rmr" || t === "-rmdir");
  if (rm < 0) return null;
  const rest = a.slice(rm + 1);
  const recursive = a[rm] === "-rmr" || rest.some((t) => /^-[rRf]{1,3}$/.test(t) && /[rR]/.test(t));
  const root = rest.some((t) => !isOption(t) && /^(?:(?:hdfs|viewfs|s3a|abfss?|gs):\/\/[^/\s]{1,253})?(?:\/|\/\*|\/user\/?|\/user\/\*|\/data\/?|\/data\/\*)$/.test(t));
  return recursive && root ? "deletes a distributed file system's root recursively" : null;
}

/** Every user's home, or a person's whole library folder of the home. */
const ALL_HOMES = /^(?:\/[^/\s]{1,64}){0,3}\/(?:homes?|Users)\/\*$/;
const HOME_LIBRARY = /^(?:~|\$HOME|\$\{HOME\}|\/Users\/[^/]{1,64}|\/home\/[^/]{1,64})\/(?:(?:Documents|Pictures|Desktop|Music|Movies|Videos|Photos)\/?\*?|(?:Pictures|Music|Movies)\/[^/]{1,128}\.(?:photoslibrary|musiclibrary|tvlibrary|imovielibrary|aplibrary)\/?|Library\/Mobile Documents\/?\*?|Library\/Mobile Documents\/[^/]{1,128}(?:\/Documents)?\/?\*?|Library\/CloudStorage\/?\*?|Library\/CloudStorage\/[^/]{1,128}(?:\/My Drive)?\/?\*?|(?:Dropbox(?: \([^/)]{1,64}\))?|OneDrive(?: - [^/]{1,64})?|Google Drive|My Drive|Nextcloud|ownCloud|pCloud Drive|Box|Sync|MEGA|iCloud Drive|iCloudDrive)\/?\*?)$/;

function libraryWipe(name: string, a: readonly string[]): string | null {
  if (name !== "rm") return null;
  const recursive = a.some((t) => t === "--recursive" || (/^-[a-zA-Z]+$/.test(t) && /[rR]/.test(t)));
  if (!recursive) return null;
  for (const t of a) {
    if (isOption(t)) continue;
    const p = t.replace(/\\ /g, " ");
    if (ALL_HOMES.test(p)) return "deletes every user's home folder";
    if (HOME_LIBRARY.test(p)) return "deletes a whole personal folder or library of the home";
  }
  return null;
}

/** `curl -o <autostart>`, `wget -O <autostart>`: a download written where the system runs it later. */
function downloadToAutostart(name: string, a: readonly string[], persist: RegExp): string | null {
  if (name !== "curl" && name !== "wget") return null;
  const outputs: string[] = [];
  for (let i = 0; i < a.length; i++) {
    const t = a[i] as string;
    if ((name === "curl" && (t === "-o" || t === "--output")) || (name === "wget" && (t === "-O" || t === "--output-document"))) outputs.push(a[++i] ?? "");
    else if (t.startsWith("--output=") || t.startsWith("--output-document=")) outputs.push(t.slice(t.indexOf("=") + 1));
  }
  if (name === "wget") {
    const dir = a.findIndex((t) => t === "-P" || t === "--directory-prefix");
    if (dir >= 0 && a[dir + 1] !== undefined) outputs.push((a[dir + 1] as string).replace(/\/?$/, "/x"));
  }
  return outputs.some((o) => persist.test(o)) ? `${name} writes a download where the system starts it (login, boot or schedule)` : null;
}

/** A bucket named for what a website serves (static hosting is public by design), or after a domain. */
const SITE_BUCKET = /(?:^|[^a-z])(?:www|web|website|site|static|public|cdn|assets|media|img|images|downloads?|docs|dist|releases)(?:[^a-z]|$)|\.[a-z]{2,12}$/i;
const bucketOf = (a: readonly string[]) => a.find((t) => /^(?:gs|s3):\/\/[^\s/]{1,222}/.test(t))?.replace(/^(?:gs|s3):\/\/([^/]{1,222}).*$/, "$1") ?? null;

/**
 * A whole bucket or container opened to everyone: `gsutil iam ch allUsers:objectViewer gs://b`, `gsutil defacl set
 * public-read`, `gsutil acl ch -r -u AllUsers:R`, `gcloud storage buckets add-iam-policy-binding --member=allUsers`,
 * `aws s3api put-bucket-acl --acl public-read`, `aws s3api delete-public-access-block`, `az storage container
 * set-permission --public-access container`. A bucket named for a website's files (`www`, `static`, `assets`, a
 * domain) passes — static hosting is public by design — unless everyone may also write; one object published
 * (`aws s3 cp … --acl public-read`) passes.
 */
function bucketOpened(name: string, a: readonly string[]): string | null {
  if (name !== "gsutil" && name !== "gcloud" && name !== "aws" && name !== "az") return null;
  const lower = a.map((t) => t.toLowerCase());
  const bucket = bucketOf(a) ?? (() => {
    const i = lower.findIndex((t) => t === "--bucket" || t === "--name" || t === "-n" || t === "--container-name");
    return i >= 0 ? (a[i + 1] ?? null) : (a.find((t) => /^--bucket=/.test(t))?.slice(9) ?? null);
  })();
  const writable = lower.some((t) => t === "public-read-write" || /allusers:(?:objectadmin|objectcreator|roles\/storage\.(?:objectadmin|objectcreator|admin))|allusers:w\b|allusers:fc\b/.test(t));
  let opened = false;
  if (name === "gsutil") {
    const verb = lower[0] ?? "";
    if (verb === "iam" && lower[1] === "ch" && lower.some((t) => /^-?(?:allusers|allauthenticatedusers):/.test(t))) opened = true;
    if (verb === "defacl" && lower[1] === "set" && lower.some((t) => t === "public-read" || t === "public-read-write")) opened = true;
    if (verb === "acl" && (lower[1] === "ch" || lower[1] === "set") && lower.some((t) => /^(?:allusers|allauthenticatedusers):/.test(t) || t === "public-read" || t === "public-read-write") && (lower.includes("-r") || lower.includes("-R".toLowerCase()) || a.some((t) => /^gs:\/\/[^/\s]{1,222}\/?(?:\*\*?)?$/.test(t)))) opened = true;
  }
  if (name === "gcloud" && lower[0] === "storage" && lower[1] === "buckets" && lower[2] === "add-iam-policy-binding" && lower.some((t) => /allusers|allauthenticatedusers/.test(t))) opened = true;
  if (name === "aws" && lower[0] === "s3api") {
    if (lower[1] === "put-bucket-acl" && lower.some((t) => t === "public-read" || t === "public-read-write" || t === "--acl=public-read" || t === "--acl=public-read-write")) opened = true;
    if (lower[1] === "delete-public-access-block") opened = true;
  }
  if (name === "az" && lower[0] === "storage" && lower[1] === "container" && lower[2] === "set-permission" && lower.some((t, i) => (t === "--public-access" && /^(?:container|blob)$/.test(lower[i + 1] ?? "")) || /^--public-access=(?:container|blob)$/.test(t))) opened = true;
  if (!opened) return null;
  if (!writable && bucket !== null && SITE_BUCKET.test(bucket)) return null;
  return `${name} opens a whole bucket or container to everyone${writable ? " (anyone may write)" : ""}`;
}

/** Judges one resolved command (see above). `sql` is commands.ts's destructiveSql, `nested` judges a line. */
export function judgeScope(name: string, a: readonly string[], persist: RegExp, nested: (text: string) => { type: string; detail: string }[]): ScopeFinding[] {
  const out: ScopeFinding[] = [];
  for (const line of sshRunsLines(name, a)) {
    const inner = nested(line)[0];
    if (inner) out.push({ type: inner.type, detail: `ssh runs a command for its option: ${inner.detail}` });
  }
  // `kubectl exec pod -- nsenter …`, `docker exec c nsenter …`: the command run inside, judged for the host entered.
  if ((name === "kubectl" || name === "oc") && a.includes("exec") && a.includes("--")) {
    const inner = a.slice(a.indexOf("--") + 1);
    const innerHost = hostEntered((inner[0] ?? "").replace(/^.*\//, ""), inner.slice(1));
    if (innerHost) out.push({ type: "dangerous_command.privileged_container", detail: `${name} exec: ${innerHost}` });
  }
  const host = hostEntered(name, a);
  if (host) out.push({ type: "dangerous_command.privileged_container", detail: host });
  const bucket = bucketOpened(name, a);
  if (bucket) out.push({ type: "dangerous_command.permissions", detail: bucket });
  const erase = diskutilErase(name, a);
  if (erase) out.push({ type: "dangerous_command.disk_format", detail: erase });
  const hdfs = hdfsRoot(name, a);
  if (hdfs) out.push({ type: "dangerous_command.recursive_delete", detail: hdfs });
  const lib = libraryWipe(name, a);
  if (lib) out.push({ type: "dangerous_command.recursive_delete", detail: lib });
  const auto = downloadToAutostart(name, a, persist);
  if (auto) out.push({ type: "dangerous_command.persistence", detail: auto });
  if (name === "sqlite3" || name === "duckdb") {
    const words = a.filter((t) => !isOption(t));
    const sql = words[1];
    if (sql !== undefined) {
      const hit = unscopedSql(sql, words[0] ?? "");
      if (hit) out.push({ type: "dangerous_command.database_destroy", detail: `${name} ${hit}` });
    }
  }
  return out;
}

/** Words that make a line worth parsing for these checks (added to commands.ts's triggers). */
/** (`rm`, `curl`, `wget` and `nsenter` are triggers already; ssh only with an option that runs a command.) */
export const SCOPE_TRIGGERS = ["gsutil", "allusers", "allauthenticatedusers", "public-read", "public-read-write", "delete-public-access-block", "public-access", "diskutil", "hdfs", "hadoop", "sqlite3", "duckdb", "proxycommand", "localcommand", "knownhostscommand"];

/** A line of a notebook cell that IPython hands to the shell: `!cmd`, `%sx cmd`, `%system cmd`, or a `%%bash` cell. */
// (Fourteenth round) and the package magics, `%pip install …` and `%conda install …`, which run pip and conda.
const NOTEBOOK_ESCAPE = /^([ \t]{0,16})(!{1,2}|%(?:sx|system)[ \t]|%(?=(?:pip|conda|mamba|uv)[ \t]))(?=[ \t]{0,4}[A-Za-z/~.$])/gm;
const NOTEBOOK_CELL = /^([ \t]{0,16})%%(?:bash|sh|script[ \t]{1,4}(?:ba|z)?sh)[ \t]{0,16}$/gm;

/**
 * The text of a command site with a notebook cell's shell escapes made shell lines (the same length, so spans hold):
 * `!bash -c '…'` is `bash -c '…'`. A line without one is unchanged; a shell line never starts with `!` and a word
 * (bash's `!` negation takes a space), so nothing a shell runs reads differently.
 */
export function notebookShell(text: string): string {
  if (!text.includes("!") && !text.includes("%")) return text;
  if (!/^[ \t]{0,16}(?:!|%)/m.test(text)) return text;
  return text.replace(NOTEBOOK_ESCAPE, (_m, lead: string, esc: string) => lead + " ".repeat(esc.length)).replace(NOTEBOOK_CELL, (m) => " ".repeat(m.length));
}
