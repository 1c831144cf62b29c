import { statementStart } from "./commands-unfiltered.js";
import { isOption, optionValue, type Command, type Script } from "./shell.js";

/*
 * (Fourteenth round, "cps14") Commands judged by what they reach rather than by one product's verbs
 * (docs/detection.md, "Fourteenth round: paths by what the file is for, commands by what they reach"):
 *
 * - **a store of record emptied by a search** (`.recovery_delete`): `find <root> … -delete` (or `-exec rm`) whose root
 *   is a backup, archive or snapshot folder, or a service's database or storage folder under `/var/lib`, and whose
 *   filter keeps nothing old — a rotation deletes what is older than N days (`-mtime +14`, `-mmin +60`) and passes;
 *   deleting the newest files, or all of one kind (`-name '*.dcm'`), is what an intruder or a wiper does. Partial,
 *   temporary, lock and log files (`-name '*.tmp'`) are housekeeping and pass;
 * - **a mounted volume's or a service's data emptied** (`.recursive_delete`): `rm -r` of the whole content of a
 *   mounted volume (`/Volumes/<name>/*`, `/mnt/<name>/*`, `/media/<user>/<name>/*`) or of a service's `db`, `data`,
 *   `storage` or `database` folder under `/var/lib/<service>/`. Caches, temporary and scratch volumes, package lists
 *   (`/var/lib/apt/lists/*`) and one subfolder pass;
 * - **a cloud's backups deleted in bulk** (`.recovery_delete`): `az storage blob delete-batch`, `az storage container
 *   delete`, `aws s3 rm --recursive`, `aws s3 rb --force`, `gsutil rm -r`, `gcloud storage rm -r`, `rclone purge|delete`,
 *   when the account, container, bucket or remote is named for backups, snapshots or archives. A website's container
 *   (`$web`), build artefacts and one dated object pass;
 * - **a framework's database dropped on its production alias** (`.database_destroy`): Drush's `sql-drop`/`sql:drop`
 *   with `-y` on an alias or URI that is not a development one, Symfony's `doctrine:database:drop --force` outside a
 *   development environment (WP-CLI and Laravel are commands-control.ts's);
 * - **a downloaded script handed to a program** (`.download_execute`): a line that saves a URL's file with a script's
 *   or program's extension (`curl -o /tmp/fix.lua`, `Invoke-WebRequest … -OutFile $env:TEMP\fix.jsx`) and then gives
 *   that file to any program but a viewer, a checksum or a linter — an app's script host (After Effects, DaVinci
 *   Resolve's `fuscript`, Blender, GIMP, Office) runs it as surely as `sh` does. Vendors' installers are judged by
 *   commands-benign.ts before this; data files (`.json`, `.csv`, images) and files only read (`cat`, `sha256sum`,
 *   `shellcheck`) pass.
 */


/** A folder that keeps what cannot be made again: backups, archives, snapshots. */
const RECORD_DIR = /(?:^|\/)(?:backups?|archives?|archived|snapshots?|historian|dumps|vault|retention)(?:\/|$)/i;
/** A service's own data under `/var/lib`. */
const SERVICE_DATA = /^\/var\/lib\/[\w.-]{1,64}\/(?:[\w.-]{1,64}\/){0,2}(?:db|data|database|databases|storage|db-v\d{1,3}|store)\/?(?:\*|\.\*)?$/i;
/** Names of files whose deletion is housekeeping. */
const HOUSEKEEPING = /\.(?:tmp|temp|part|partial|lock|pid|log|bak~|swp|crdownload|download)\b|(?:^|[*\/])(?:tmp|temp|cache|\.cache|logs?)(?:\/|$|\*)|core\.\*|\*~$/i;
/** A time filter that keeps the newer files: a rotation. */
const ROTATION = /^[+]\d{1,6}$/;

function findRecordsDelete(a: readonly string[]): string | null {
  const del = a.includes("-delete") || a.some((t, i) => (t === "-exec" || t === "-execdir") && /^(?:\/bin\/)?(?:rm|shred|unlink)$/.test(a[i + 1] ?? ""));
  if (!del) return null;
  const roots: string[] = [];
  for (const t of a) {
    if (t.startsWith("-") || t === "!" || t === "(" || t === ")") break;
    roots.push(t);
  }
  const reached = roots.filter((r) => r.startsWith("/") && (RECORD_DIR.test(r) || SERVICE_DATA.test(r.replace(/\/$/, "") + "/")) && !/\/(?:tmp|temp|cache|logs?)(?:\/|$)/i.test(r));
  if (reached.length === 0) return null;
  for (let i = 0; i < a.length; i++) {
    const t = a[i] as string;
    if (/^-(?:mtime|mmin|ctime|cmin|atime|amin)$/.test(t) && ROTATION.test(a[i + 1] ?? "")) return null;
    if (/^-(?:i?name|i?path|i?wholename|regex)$/.test(t) && HOUSEKEEPING.test(a[i + 1] ?? "")) return null;
    if (t === "-empty") return null;
  }
  return `find deletes what ${(reached[0] as string).slice(0, 80)} keeps (no rotation by age)`;
}

/** A mounted volume's whole content. */
const VOLUME_WHOLE = /^(?:\/Volumes\/[^/]{1,80}|\/mnt\/[^/]{1,80}|\/media\/[^/]{1,64}\/[^/]{1,80})\/(?:\*|\.\*|\.\?\?\*|\.\[!.\]\*)$/;
const NOT_VOLUME = /^\/(?:Volumes|mnt|media)\/(?:[^/]{1,64}\/)?(?:tmp|temp|scratch|cache|ramdisk|wsl|Recovery|Preboot|VM|Update)\//i;

function wholeContentDelete(name: string, a: readonly string[]): string | null {
  if (name !== "rm" && name !== "shred" && name !== "srm") return null;
  const recursive = a.some((t) => t === "--recursive" || (/^-[a-zA-Z]+$/.test(t) && /[rR]/.test(t)));
  if (!recursive) return null;
  const operands = a.filter((t) => !isOption(t));
  const volume = operands.find((t) => VOLUME_WHOLE.test(t) && !NOT_VOLUME.test(t));
  if (volume) return `deletes every file on the volume ${volume.slice(0, 80)}`;
  const data = operands.find((t) => SERVICE_DATA.test(t.replace(/\/$/, "")) && /\/(?:\*|\.\*)?$|[^/*]$/.test(t));
  if (data) return `deletes a service's data folder ${data.slice(0, 80)}`;
  return null;
}

/** A name that says backups, snapshots or archives. */
const BACKUP_NAME = /(?:^|[^a-z])(?:backups?|bak|bkp|snapshots?|snaps|archives?|dr|recovery|vault|retention)(?:[^a-z]|$)|backup|snapshot|archive/i;

function cloudBackupsDelete(name: string, a: readonly string[]): string | null {
  const pos = a.filter((t) => !isOption(t));
  if (name === "az" && pos[0] === "storage" && ((pos[1] === "blob" && pos[2] === "delete-batch") || (pos[1] === "container" && pos[2] === "delete"))) {
    const where = [optionValue(a, /^--account-name$/), optionValue(a, /^(?:--source|-s)$/), optionValue(a, /^(?:--name|-n|--container-name|-c)$/)].filter((v): v is string => v !== undefined);
    const pattern = optionValue(a, /^--pattern$/);
    if (where.some((w) => BACKUP_NAME.test(w)) && (pattern === undefined || /^\*+$|^\*\*\/\*$/.test(pattern))) return "deletes every blob of a backup store";
  }
  if (name === "aws" && pos[0] === "s3" && ((pos[1] === "rm" && a.includes("--recursive")) || (pos[1] === "rb" && a.includes("--force")))) {
    const target = pos.find((t) => t.startsWith("s3://"));
    if (target && BACKUP_NAME.test(target) && !/\d{4}-\d{2}-\d{2}|\/tmp\/|\/temp\//i.test(target)) return "deletes every object of a backup bucket";
  }
  if ((name === "gsutil" && pos.includes("rm") && a.some((t) => /^-[a-zA-Z]*r/.test(t))) || (name === "gcloud" && pos[0] === "storage" && pos[1] === "rm" && a.some((t) => t === "-r" || t === "--recursive"))) {
    const target = pos.find((t) => t.startsWith("gs://"));
    if (target && BACKUP_NAME.test(target) && !/\d{4}-\d{2}-\d{2}|\/tmp\/|\/temp\//i.test(target)) return "deletes every object of a backup bucket";
  }
  if (name === "rclone" && (pos[0] === "purge" || pos[0] === "delete")) {
    const target = pos[1] ?? "";
    if (BACKUP_NAME.test(target) && !/\d{4}-\d{2}-\d{2}/.test(target) && !a.some((t) => /^--(?:min-age|max-age)/.test(t))) return "deletes every file of a backup remote";
  }
  return null;
}

/** A development alias, URI or environment: a framework's reset there is routine. */
const DEV_NAME = /(?:^|[^a-z])(?:test|tests|testing|dev|development|local|localhost|tmp|temp|scratch|sandbox|ci|e2e|demo|example|docker|ddev|lando)(?:[^a-z]|$)/i;

function frameworkDrop(name: string, a: readonly string[]): string | null {
  if (name === "drush" && a.some((t) => /^(?:sql-drop|sql:drop)$/.test(t)) && a.some((t) => t === "-y" || t === "--yes") && !a.some((t) => DEV_NAME.test(t))) return "drush drops the site's whole database";
  const console = name === "console" || name === "bin/console" || (name === "php" && /(?:^|\/)console$/.test(a[0] ?? ""));
  if (console && a.some((t) => /^doctrine:(?:database|schema):drop$/.test(t)) && a.includes("--force") && !a.some((t) => DEV_NAME.test(t))) return "doctrine drops the application's database";
  return null;
}

/*
 * A protection of the operating system switched off by writing its setting (`.defense_evasion`): `defaults write …
 * DisableLibraryValidation -bool true` (unsigned libraries load into signed apps), `LSQuarantine -bool false`
 * (downloads skip Gatekeeper); `reg add …` or `Set-ItemProperty …` of UAC (`EnableLUA 0`), Defender's switches
 * (`DisableAntiSpyware 1`, `DisableRealtimeMonitoring 1`…), SmartScreen, LSA protection (`RunAsPPL 0`), WDigest's
 * clear-text logons (`UseLogonCredential 1`), the firewall's profile (`EnableFirewall 0`). The setting written to its
 * protective value, or read, passes.
 */
const OFF_VALUES: Record<string, RegExp> = {
  disablelibraryvalidation: /^(?:true|yes|1)$/i,
  lsquarantine: /^(?:false|no|0)$/i,
  gkautorearm: /^(?:false|no|0)$/i,
  enablelua: /^(?:0|0x0+)$/i,
  consentpromptbehavioradmin: /^(?:0|0x0+)$/i,
  disableantispyware: /^(?:1|0x0*1|\$?true)$/i,
  disableantivirus: /^(?:1|0x0*1|\$?true)$/i,
  disablerealtimemonitoring: /^(?:1|0x0*1|\$?true)$/i,
  disablebehaviormonitoring: /^(?:1|0x0*1|\$?true)$/i,
  disableioavprotection: /^(?:1|0x0*1|\$?true)$/i,
  disablescriptscanning: /^(?:1|0x0*1|\$?true)$/i,
  enablesmartscreen: /^(?:0|0x0+)$/i,
  smartscreenenabled: /^off$/i,
  tamperprotection: /^(?:0|4|0x0+|0x0*4)$/i,
  runasppl: /^(?:0|0x0+)$/i,
  uselogoncredential: /^(?:1|0x0*1)$/i,
  enablefirewall: /^(?:0|0x0+)$/i,
};

function protectionOff(name: string, a: readonly string[]): string | null {
  let key: string | undefined;
  let value: string | undefined;
  if (name === "defaults" && a.includes("write")) {
    const w = a.indexOf("write");
    key = a[w + 2];
    value = a.slice(w + 3).find((t) => !t.startsWith("-"));
  } else if (name === "reg" && /^add$/i.test(a[0] ?? "")) {
    key = optionValue(a, /^\/v$/i);
    value = optionValue(a, /^\/d$/i);
  } else if (name === "set-itemproperty" || name === "new-itemproperty" || name === "sp") {
    key = optionValue(a, /^-Name$/i);
    value = optionValue(a, /^-Value$/i);
  }
  if (key === undefined || value === undefined) return null;
  const off = OFF_VALUES[key.replace(/^["']|["']$/g, "").toLowerCase()];
  return off !== undefined && off.test(value.replace(/^["']|["']$/g, "")) ? `${key.slice(0, 40)} set to ${value.slice(0, 12)} turns a protection of the system off` : null;
}

/*
 * A package built from a repository on a host that is neither a code forge nor the company's own (`.untrusted_install`):
 * `pip install git+https://git.fastcsv-tools.example/…`, `npm install git+https://…`, `npx git+https://…`. Installing
 * runs the package's build and install scripts. A wheel or an archive from a vendor's own downloads site passes (how
 * vendors ship SDKs; exc9's look-alike), as do forges (GitHub,
 * GitLab, Bitbucket, Codeberg, SourceHut, Gitee, Azure DevOps, Hugging Face), indexes (PyPI, PyTorch's, npm's) and a
 * company's own hosts (`.internal`, `.corp`, `.local`, `.lan`, private addresses, one-label names) pass.
 */
const FORGE_OR_INDEX = /^(?:[\w-]{1,63}\.)*(?:github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org|codeberg\.org|git\.sr\.ht|gitee\.com|dev\.azure\.com|visualstudio\.com|huggingface\.co|pypi\.org|pythonhosted\.org|pytorch\.org|npmjs\.org|npmjs\.com|yarnpkg\.com|nvidia\.com|anaconda\.org|conda\.io|sourceforge\.net|launchpad\.net|savannah\.gnu\.org|googlesource\.com|apache\.org)$/i;
const OWN_HOST = /^(?:localhost|[\w-]{1,63}|(?:[\w-]{1,63}\.)+(?:internal|corp|local|lan|intra|intranet|home\.arpa|localdomain)|10\.\d{1,3}\.\d{1,3}\.\d{1,3}|192\.168\.\d{1,3}\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])\.\d{1,3}\.\d{1,3}|127\.\d{1,3}\.\d{1,3}\.\d{1,3})$|(?:^|[.-])internal(?:[.-]|$)/i;
const PACKAGE_URL = /^(?:git\+)?(?:https?|ssh|git):\/\/(?:[^@/\s]{1,128}@)?([^/:\s]{1,253})(?::\d{1,5})?(\/[^\s]{0,1024})?$/i;

function offIndexInstall(name: string, a: readonly string[]): string | null {
  let args = a;
  let tool = name;
  if (name === "python" && a[0] === "-m" && a[1] === "pip") {
    tool = "pip";
    args = a.slice(2);
  } else if (name === "uv" && a[0] === "pip") {
    tool = "pip";
    args = a.slice(1);
  }
  const pos = args.filter((t) => !isOption(t));
  const installs = (/^(?:pip|pip3|pipx)$/.test(tool) && pos[0] === "install") || (/^(?:npm|pnpm|yarn|bun)$/.test(tool) && /^(?:install|i|add)$/.test(pos[0] ?? "")) || tool === "npx";
  if (!installs) return null;
  for (const t of pos.slice(tool === "npx" ? 0 : 1, 12)) {
    const spec = t.replace(/^[\w.-]{1,100}\s{0,2}@\s{0,2}(?=(?:git\+)?https?:)/, "");
    const m = PACKAGE_URL.exec(spec);
    if (m === null) continue;
    const vcs = /^git\+|^git:|^ssh:|\.git(?:@|#|$)/i.test(spec);
    const host = (m[1] as string).toLowerCase();
    // (A wheel or an archive from a vendor's own downloads site is how vendors ship SDKs: exc9's look-alike. Not over
    // plain HTTP, nor from a public address with no name (seventeenth round): anyone on the way, or anyone at all,
    // serves that archive, and its install scripts run.)
    if (!vcs && !/^http:/i.test(spec) && !/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host)) continue;
    if (FORGE_OR_INDEX.test(host) || OWN_HOST.test(host)) continue;
    return `${tool} installs a package from ${host.slice(0, 80)}, neither a package index nor a code forge (its install scripts run)`;
  }
  return null;
}

/** The checks of one resolved command, each with the finding it makes (`find` is read only by its own). */
const CHECKS: readonly [string, (name: string, a: readonly string[]) => string | null][] = [
  ["dangerous_command.recovery_delete", (name, a) => (name === "find" ? findRecordsDelete(a) : null)],
  ["dangerous_command.recursive_delete", wholeContentDelete],
  ["dangerous_command.recovery_delete", cloudBackupsDelete],
  ["dangerous_command.untrusted_install", offIndexInstall],
  ["dangerous_command.defense_evasion", protectionOff],
  ["dangerous_command.database_destroy", frameworkDrop],
];

/** Checks of one resolved command: its name and its words. */
export function judgeRecords(name: string, a: readonly string[]): { type: string; detail: string }[] {
  const out: { type: string; detail: string }[] = [];
  for (const [type, check] of CHECKS) {
    const detail = check(name, a);
    if (detail) out.push({ type, detail });
  }
  return out;
}

/** Downloaders and the option that names the file they save. */
const SAVES = /^(?:-o|--output|-O|--output-document|-OutFile|-outfile|-OutF|--out)$/i;
const DOWNLOAD = /^(?:curl|wget|invoke-webrequest|iwr|aria2c|http|xh|start-bitstransfer)$/;
/** A file a program can run: scripts of any host, and programs. */
const RUNNABLE = /\.(?:jsx|jsxbin|js|mjs|cjs|lua|py|pyc|rb|pl|php|ps1|psm1|vbs|vbe|wsf|hta|tcl|r|scpt|applescript|sh|bash|zsh|command|bat|cmd|groovy|jl|swift|ahk|au3|scr|exe|dll|msi|jar|run|bin|appimage|so|dylib|kts|nse|sql)$/i;
/** Programs that read a file without running it. */
const VIEWERS = new Set(["cat", "less", "more", "head", "tail", "sha256sum", "sha1sum", "sha512sum", "md5sum", "shasum", "file", "ls", "stat", "wc", "grep", "rg", "diff", "cmp", "shellcheck", "bat", "vim", "vi", "nano", "code", "gpg", "cosign", "jq", "rm", "cp", "mv", "chmod", "echo", "get-content", "get-filehash", "gc", "type", "cat.exe", "minisign", "xxd", "hexdump", "strings", "du", "test", "[", "unzip", "tar"]);

/** The files a downloader saves (the value of its output option, or wget's and -O's name from the URL). */
function savedFiles(name: string, a: readonly string[]): { file: string; url: string }[] {
  if (!DOWNLOAD.test(name)) return [];
  const url = a.find((t) => /^(?:https?|ftp):\/\//i.test(t));
  if (url === undefined) return [];
  const out: { file: string; url: string }[] = [];
  for (let i = 0; i < a.length; i++) {
    const t = a[i] as string;
    if (SAVES.test(t) && a[i + 1] !== undefined) out.push({ file: a[i + 1] as string, url });
    else if (/^--output(?:-document)?=/.test(t)) out.push({ file: t.slice(t.indexOf("=") + 1), url });
  }
  return out;
}

/** Whether a saved file's name ends like a file a program runs (the name, or the URL's last segment). */
const runnable = (file: string, url: string) => RUNNABLE.test(file) || (!/\.[a-z0-9]{1,8}$/i.test(file) && RUNNABLE.test(url.replace(/[?#].*$/, "")));

/**
 * A downloaded script handed to a program (see above), judged over a line's commands in order. `vendor` says whether
 * a download is a vendor's documented installer (commands-benign.ts), which passes.
 */
export function judgeHandedScript(s: Script, nameOf: (c: Command) => { name: string; args: string[] }, vendor: (url: string) => boolean): { type: string; detail: string } | null {
  const saved = new Map<string, string>();
  let budget = 400;
  for (const p of s.pipelines) {
    for (const c of p.commands) {
      if (--budget < 0) return null;
      const { name, args } = nameOf(c);
      for (const f of savedFiles(name, args)) if (saved.size < 16 && runnable(f.file, f.url) && !vendor(f.url)) saved.set(f.file, f.url);
      if (saved.size === 0 || DOWNLOAD.test(name) || VIEWERS.has(name)) continue;
      const words = [name, ...args];
      for (const [file, url] of saved) {
        const base = file.slice(Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\")) + 1);
        if (words.some((w) => w === file || w.endsWith("=" + file) || (base.length > 3 && (w === "./" + base || w.endsWith("/" + base)) && w !== url))) {
          return { type: "dangerous_command.download_execute", detail: `runs a script downloaded from ${url.slice(0, 80)} with ${name.slice(0, 40)}` };
        }
      }
    }
  }
  return null;
}

/** Words that make a line worth parsing for these checks (added to commands.ts's triggers). */
export const RECORDS_TRIGGERS = ["defaults", "set-itemproperty", "new-itemproperty", "drush", "console", "doctrine:database:drop", "az", "gsutil", "rclone", "invoke-webrequest", "iwr", "curl", "wget"];

/*
 * SQL that reaches every row or every dependent object where production is named (the statement's table, or where it
 * runs: the database argument, the request's words before it) — `.database_destroy`:
 * - an `UPDATE … SET …` without `WHERE` (nor `FROM`/`JOIN`, which Postgres and SQL Server filter by): every row of a
 *   production table rewritten (a claim marked paid, every balance set). A development, test or temporary database
 *   or table, and a statement with a WHERE, pass;
 * - a `DROP EXTENSION|TYPE|DOMAIN|FUNCTION … CASCADE`: every column, index and view that depends on it goes too
 *   (`DROP EXTENSION vector CASCADE` drops every embedding). Without CASCADE the database refuses while anything
 *   depends on it, and passes.
 */
const PRODUCTION_NAME = /(?:^|[^a-z])(?:prod|production|prd|live)(?:[^a-z]|$)/i;
const NOT_PRODUCTION = /(?:^|[^a-z])(?:test|tests|testing|dev|development|local|tmp|temp|scratch|sandbox|ci|e2e|fixtures?|demo|example|staging|stage|stg|backup|bak|copy|import|migration)(?:[^a-z]|$)/i;
const UPDATE_SET = /\bupdate\s{1,8}((?:[`"[]?[\w$-]{1,64}[`"\]]?\.){0,2}[`"[]?[\w$-]{1,64}[`"\]]?)\s{1,8}set\s/gi;
const DROP_CASCADE = /\bdrop\s{1,8}(extension|type|domain|function|collation|sequence)\s{1,8}(?:if\s{1,8}exists\s{1,8})?([\w$".-]{1,128})[^;]{0,200}?\bcascade\b/gi;

export function everyRowSql(s: string, where: string): string | null {
  if (NOT_PRODUCTION.test(where) && !PRODUCTION_NAME.test(where)) return null;
  UPDATE_SET.lastIndex = 0;
  for (let m, n = 0; (m = UPDATE_SET.exec(s)) !== null && n < 16; n++) {
    if (!statementStart(s, m.index)) continue;
    const table = m[1] as string;
    if (NOT_PRODUCTION.test(table) || !(PRODUCTION_NAME.test(table) || PRODUCTION_NAME.test(where))) continue;
    const end = s.indexOf(";", UPDATE_SET.lastIndex);
    const body = s.slice(UPDATE_SET.lastIndex, end < 0 ? Math.min(s.length, UPDATE_SET.lastIndex + 4000) : end);
    if (/\b(?:where|from|join|limit)\b/i.test(body)) continue;
    return `rewrites every row of the production table ${table.slice(0, 64)} (an UPDATE without WHERE)`;
  }
  DROP_CASCADE.lastIndex = 0;
  for (let m, n = 0; (m = DROP_CASCADE.exec(s)) !== null && n < 16; n++) {
    if (!statementStart(s, m.index)) continue;
    const what = m[2] as string;
    if (NOT_PRODUCTION.test(what) || !(PRODUCTION_NAME.test(what) || PRODUCTION_NAME.test(where))) continue;
    return `drops the ${(m[1] as string).toLowerCase()} ${what.slice(0, 64)} and everything that depends on it, in production`;
  }
  return null;
}
