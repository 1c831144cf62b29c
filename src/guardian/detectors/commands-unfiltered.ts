/*
 * (Fifteenth round, "cps15") Commands that destroy or decide without a filter, and sessions handed to an outside
 * screen (docs/detection.md, "Fifteenth round: infrastructure's shared secrets, commands that destroy without a
 * filter"). Each check reads a resolved command's program and words (commands.ts resolves `sudo` first), or a SQL
 * statement's text:
 *
 * - **a search that deletes everything under a data root** (`.recovery_delete`): `find <root> -delete` (or
 *   `-exec rm|shred`) whose only tests are `-type`, `-mindepth`, `-maxdepth`, `-xdev`, `-mount`: every file of the tree,
 *   when the root is an absolute folder of data (a mount, a share, a home, `/srv`, `/data`, `/var/lib`, `/opt`,
 *   `/var/www`…). A filter of any kind (a name, an age, a size, `-empty`) is a clean-up and passes, and so do relative
 *   roots (the project's build folder), variables, and temporary, cache, build and log folders;
 * - **live data shredded** (`.recursive_delete`): `shred`, `srm`, `wipe` or `sdelete` of a database engine's data tree
 *   (`/var/lib/postgresql/…`, `/var/lib/mysql/…`, `/var/opt/mssql/…`), a service's data folder, a backup or archive,
 *   a database file (`*.db`, `*.sqlite`, `*.ibd`, `*.mdf`, `*.kdbx`…) or a glob under a system or data folder. One
 *   key, one download or one document shredded (`shred -u /tmp/deploy.pem`, `~/Downloads/statement.pdf`) passes;
 * - **a Windows data folder emptied** (`.recursive_delete`, read as text by commands.ts's TEXT_CHECKS):
 *   `Remove-Item -Recurse` (`rd /s`, `del /s`) of the whole content of a drive's or a share's top folder named for
 *   data, records or backups (`D:\PMSData\*`, `E:\Backups\*`, `\\nas\records\*`). Build, test, temporary, cache and
 *   log folders pass;
 * - **an interactive session handed to an outside screen** (`.reverse_shell`): a terminal opened on another machine's X
 *   display (`xterm -display 203.0.113.4:1`, `DISPLAY=host:0 xterm`, `--display=`), a desktop pushed to an outside
 *   viewer (`x11vnc -connect host`, `winvnc -connect`, `tvnserver -controlapp -connect`). The local display (`:0`,
 *   `localhost:10` of `ssh -X`, a unix socket) passes;
 * - **a decision written on every row** (`.database_destroy`, SQL): an `UPDATE … SET` without `WHERE` (nor `FROM`,
 *   `JOIN`, `LIMIT`) that sets a column holding a decision, a role, money or a login (`status`, `approved`, `role`,
 *   `is_admin`, `paid`, `balance`, `password`, `email`…) to a literal: every application approved, every invoice paid,
 *   every user an admin. A backfill computed from another column (`SET slug = lower(name)`), another column set
 *   everywhere (`SET maintenance = true`), and tables or databases named as test, development or scratch pass.
 */

import { isOption, optionValue } from "./shell.js";

export interface UnfilteredFinding {
  type: string;
  detail: string;
}


/** Folders whose content is made again or thrown away: temporary, cache, build, logs. */
const DISPOSABLE_DIR = /(?:^|[/\\])(?:tmp|temp|\.?cache|caches|build|builds|dist|out|target|artifacts?|node_modules|__pycache__|\.next|logs?|trash|\.trash|scratch|spool\/postfix|_work|work|obj|bin|coverage|test|tests|testdata|fixtures?|sample|samples|demo|mock|sandbox)(?:[/\\]|$)/i;
/** Absolute roots that hold data: mounts, shares, homes, services' data and web roots. */
const DATA_ROOT = /^\/(?:mnt|media|Volumes|srv|data|home|Users|var\/lib|var\/opt|var\/www|var\/mail|var\/vmail|opt|shares?|export|nfs|storage|backups?|archive)(?:\/|$)/;

/** find's tests that keep a search to some files (any of them makes it a clean-up). */
const FILTERS = /^-(?:i?name|i?path|i?wholename|i?regex|mtime|mmin|ctime|cmin|atime|amin|newer\w*|size|empty|user|group|uid|gid|perm|links|inum|samefile|used|fstype|nouser|nogroup|prune|lname|ilname)$/;
const HARMLESS_TESTS = /^-(?:type|mindepth|maxdepth|xdev|mount|depth|follow|noleaf|print0?|daystart|ignore_readdir_race|L|H|P|O\d)$/;

function findEverything(a: readonly string[]): string | null {
  const del = a.includes("-delete") || a.some((t, i) => (t === "-exec" || t === "-execdir") && /^(?:\/(?:usr\/)?bin\/)?(?:rm|shred|unlink|srm)$/.test(a[i + 1] ?? ""));
  if (!del) return null;
  const roots: string[] = [];
  let i = 0;
  for (; i < a.length; i++) {
    const t = a[i] as string;
    if (/^-[HLP]$/.test(t)) continue;
    if (t.startsWith("-") || t === "!" || t === "(" || t === ")") break;
    roots.push(t);
  }
  const reached = roots.filter((r) => DATA_ROOT.test(r) && !DISPOSABLE_DIR.test(r) && !r.includes("$") && r.split("/").filter(Boolean).length >= 1);
  if (reached.length === 0) return null;
  for (; i < a.length; i++) {
    const t = a[i] as string;
    if (t === "-exec" || t === "-execdir" || t === "-ok" || t === "-okdir") break;
    if (t === "-delete") continue;
    if (FILTERS.test(t) || t === "!" || t === "-not" || t === "-o" || t === "-or") return null;
    if (HARMLESS_TESTS.test(t)) {
      if (/^-(?:type|mindepth|maxdepth|fstype)$/.test(t)) i++;
      continue;
    }
    if (t.startsWith("-")) return null;
  }
  return `find deletes every file under ${(reached[0] as string).slice(0, 80)} (no filter)`;
}

/** A database engine's data tree, a service's data folder, backups and archives. */
const LIVE_DATA = /^\/(?:var\/lib\/(?:postgresql|pgsql|postgres|mysql|mariadb|mongodb|mongo|redis|elasticsearch|opensearch|cassandra|influxdb|clickhouse|couchdb|neo4j|rabbitmq|etcd|cockroach|mssql|firebird|questdb|timescaledb)(?:\/|$)|var\/opt\/mssql(?:\/|$)|(?:var\/lib|srv|opt|data)\/[^/]{1,64}\/(?:[^/]{1,64}\/){0,3}(?:data|db|database|databases|storage|store|records|pgdata|mysql)(?:\/|$))|(?:^|\/)(?:backups?|archives?|snapshots?|dumps)(?:\/|$)/i;
const DATABASE_FILE = /\.(?:db|sqlite3?|ibd|frm|myd|myi|mdf|ldf|ndf|wt|dbf|fdb|gdb|accdb|mdb|kdbx|pst|ost|realm|rdb|aof)$/i;
const NOT_DATA = /(?:^|\/)(?:mysql-files|pg_log|log|logs|tmp|temp|cache)(?:\/|$)|\.(?:pid|lock|sock|tmp)$/i;

function shredLive(name: string, a: readonly string[]): string | null {
  if (name !== "shred" && name !== "srm" && name !== "wipe" && name !== "sdelete" && name !== "sdelete64" && name !== "sdelete.exe") return null;
  const operands = a.filter((t) => !isOption(t) && !/^\/[a-z?]$/i.test(t) && !/^\d{1,4}$/.test(t));
  const windows = (t: string) => t.replace(/\\/g, "/").replace(/^[A-Za-z]:/, "");
  for (const raw of operands) {
    const t = windows(raw);
    if (!t.startsWith("/") || NOT_DATA.test(t) || t.startsWith("/dev/")) continue;
    const glob = /\*/.test(t) && /^\/(?:var|srv|opt|data|mnt|media|home|Users|Volumes)\//.test(t) && !/^\/(?:tmp|var\/tmp)\//.test(t);
    if (LIVE_DATA.test(t) || DATABASE_FILE.test(t.replace(/\*$/, "")) || glob) return `${name} destroys live data beyond recovery (${raw.slice(0, 80)})`;
  }
  return null;
}

/**
 * A Windows data folder's whole content deleted, read as text (the shell grammar does not read Windows paths):
 * `Remove-Item -Recurse -Force D:\\PMSData\\*`, `rd /s /q E:\\Records`, `del /s /q \\\\nas\\backups\\*`. The folder is a
 * drive's or a share's top folder whose name ends (or starts) with a data word; temporary, build and test folders pass.
 */
export const WINDOWS_DATA_EMPTIED = /\b(?:Remove-Item|ri|rm|del|erase|rd|rmdir)(?=[^\n;|&]{0,200}?\s(?:-r(?:ecurse)?\b|\/s\b))\s{1,4}(?:[-/][A-Za-z]{1,12}\s{1,4}){0,6}["']?(?:[A-Za-z]:|\\\\[\w.-]{1,64}(?:\\[\w$.-]{1,80})?)\\(?![\w .-]{0,40}?(?:temp|tmp|cache|build|dist|test|sample|demo|mock|scratch|staging|download|logs?\b|work|agent))(?:[\w .-]{0,40}?(?:data|db|database|records?|backups?|archives?|snapshots?)|(?:data|database|records?|backups?|archives?|snapshots?)[\w .-]{0,40}?)\\?\*?["']?(?=$|[\s;&|,])/gi;

/**
 * (Phase 2) A network device wiped or cut off from its network, by its own CLI (a device tool's command lines, read as
 * text, one a line): the startup configuration erased (`write erase`, `erase startup-config`, `erase nvram:`), the
 * device zeroized or reset to the factory (`request system zeroize`, `request system private-data-reset`, `execute
 * factoryreset`, `/system reset-configuration`), or a routing process removed whole (`no router bgp 64500`: every
 * prefix withdrawn). Showing or saving the configuration (`show startup-config`, `write memory`), entering a routing
 * process and removing one neighbour pass.
 */
export const DEVICE_WIPE = /^[ \t]{0,8}(?:write[ \t]{1,4}erase|erase[ \t]{1,4}(?:\/all[ \t]{1,4})?(?:startup-config|nvram:?)|request[ \t]{1,4}system[ \t]{1,4}(?:zeroize|private-data-reset)|execute[ \t]{1,4}factoryreset2?|\/?system[ \t]{1,4}reset-configuration|no[ \t]{1,4}router[ \t]{1,4}(?:bgp|ospf|ospfv3|isis|eigrp|rip)(?:[ \t]{1,4}[\w.-]{1,20})?)[ \t]{0,8}(?:\b[\w =.-]{0,40})?$/im;

/** Terminals and X programs that give whoever owns the display a shell. */
const TERMINALS = /^(?:xterm|uxterm|x-terminal-emulator|gnome-terminal|konsole|xfce4-terminal|mate-terminal|lxterminal|terminator|urxvt|rxvt|st|alacritty|kitty|tilix|eterm|aterm|xdotool|xev)$/;
/** A display on another machine: `host:N`, `host:N.S` (not `:N`, `localhost:N` or `unix:N`). */
function remoteDisplay(d: string): boolean {
  const m = /^([A-Za-z0-9.[\]:_-]{1,255}):(\d{1,4})(?:\.\d{1,2})?$/.exec(d.trim());
  if (m === null) return false;
  const host = (m[1] as string).toLowerCase();
  return host !== "" && host !== "localhost" && host !== "unix" && host !== "127.0.0.1" && host !== "[::1]" && !/^127\./.test(host);
}

function outsideScreen(name: string, a: readonly string[], env: readonly string[]): string | null {
  if (TERMINALS.test(name)) {
    for (let i = 0; i < a.length; i++) {
      const t = a[i] as string;
      if ((t === "-display" || t === "-d" || t === "--display") && remoteDisplay(a[i + 1] ?? "")) return `${name} opens on the outside display ${(a[i + 1] as string).slice(0, 60)}`;
      if (/^--?display=/.test(t) && remoteDisplay(t.slice(t.indexOf("=") + 1))) return `${name} opens on the outside display ${t.slice(t.indexOf("=") + 1, 80)}`;
    }
    const display = env.find((e) => /^DISPLAY=/.test(e));
    if (display && remoteDisplay(display.slice(8).replace(/^["']|["']$/g, ""))) return `${name} opens on the outside display ${display.slice(8, 68)}`;
  }
  if (/^(?:x11vnc|winvnc|winvnc4|tvnserver|uvnc_service|ultravnc|tightvncserver|vncserver|x0vncserver|krfb)(?:\.exe)?$/i.test(name)) {
    const i = a.findIndex((t) => /^-{1,2}connect$/i.test(t) || /^-{1,2}connect=/i.test(t));
    if (i >= 0) {
      const t = a[i] as string;
      const host = t.includes("=") ? t.slice(t.indexOf("=") + 1) : (a[i + 1] ?? "");
      if (host !== "" && !/^(?:localhost|127\.|\[?::1\]?)/i.test(host)) return `${name} pushes the desktop to ${host.slice(0, 60)}`;
    }
  }
  return null;
}

/**
 * (Phase 2) A time-series store or a storage pool emptied without a filter (`.recovery_delete`): `influx delete` of a
 * time range with no `--predicate` (every series of the bucket in that range: the readings a plant, a lab or a grid
 * must keep), and `ceph osd pool delete <pool> <pool> --yes-i-really-really-mean-it` (the pool and every image or file
 * in it). Buckets and pools named as test, temporary or scratch data, and a delete with a predicate, pass.
 */
const SCRATCH = /(?:^|[^a-z])(?:test|tests|tmp|temp|scratch|sandbox|dev|demo|bench|benchmark|ci|e2e)(?:[^a-z]|$)/i;
function storeEmptied(name: string, a: readonly string[]): string | null {
  if (name === "influx" && a[0] === "delete" && !a.some((t) => /^(?:--predicate|-p)(?:=|$)/.test(t))) {
    const bucket = optionValue(a, /^(?:--bucket|-b|--bucket-id)$/);
    if (bucket !== undefined && !SCRATCH.test(bucket)) return `influx deletes every series of the bucket ${bucket.slice(0, 60)} in the range (no predicate)`;
  }
  if (name === "ceph" && a[0] === "osd" && a[1] === "pool" && (a[2] === "delete" || a[2] === "rm") && a.includes("--yes-i-really-really-mean-it")) {
    const pool = a[3] ?? "";
    if (pool !== "" && !SCRATCH.test(pool)) return `ceph deletes the pool ${pool.slice(0, 60)} and everything in it`;
  }
  return null;
}

/** The checks on a resolved command (program name, words, the assignments before it). */
export function judgeUnfiltered(name: string, a: readonly string[], env: readonly string[] = []): UnfilteredFinding[] {
  const out: UnfilteredFinding[] = [];
  if (name === "find") {
    const f = findEverything(a);
    if (f) out.push({ type: "dangerous_command.recovery_delete", detail: f });
  }
  const st = storeEmptied(name, a);
  if (st) out.push({ type: "dangerous_command.recovery_delete", detail: st });
  const s = shredLive(name, a);
  if (s) out.push({ type: "dangerous_command.recursive_delete", detail: s });
  const x = outsideScreen(name, a, env);
  if (x) out.push({ type: "dangerous_command.reverse_shell", detail: x });
  return out;
}

/** Words that make a line worth parsing for these checks (added to commands.ts's triggers). */
export const UNFILTERED_TRIGGERS = ["influx", "ceph", "srm", "wipe", "sdelete", "sdelete64", "xterm", "uxterm", "x-terminal-emulator", "gnome-terminal", "konsole", "xfce4-terminal", "mate-terminal", "lxterminal", "terminator", "urxvt", "rxvt", "alacritty", "kitty", "tilix", "x11vnc", "winvnc", "winvnc4", "tvnserver", "x0vncserver", "krfb", "vncserver", "tightvncserver", "ri", "erase"];

/** Columns that hold a decision, a role, money or a login. */
const DECISION_COLUMN = /^[`"[]?(?:status|state|approved|approval|approval_status|is_approved|verified|is_verified|verified_income|verification_status|decision|outcome|eligible|is_eligible|eligibility|role|roles|is_admin|admin|is_superuser|superuser|is_staff|permissions?|access_level|paid|is_paid|payment_status|balance|amount|amount_due|price|credit_limit|grade|score|result|password|password_hash|passwd|email|owner|owner_id|iban|account_number|payee|bank_account|account|acct|account_no|routing|routing_number|aba|sort_code|swift|bic|bsb|clabe|remit_to|payout_account|deposit_account|is_deleted|deleted|locked|is_locked|approved_by|claim_status|benefit_status|active|is_active|enabled|is_enabled|disabled|is_disabled|banned|is_banned|blocked|is_blocked|suspended|is_suspended|quarantined|on_hold|flagged|is_flagged)[`"\]]?$/i;
/** A literal value: a quoted string, a number, a boolean or NULL. */
const LITERAL = /^(?:'[^']{0,200}'|N'[^']{0,200}'|"[^"]{0,200}"|-?\d{1,18}(?:\.\d{1,8})?|true|false|null|now\(\)|current_timestamp)$/i;
const DISPOSABLE_TABLE = /(?:^|[^a-z])(?:test|tests|testing|dev|development|local|tmp|temp|scratch|sandbox|ci|e2e|fixtures?|demo|example|staging|stage|stg|seed|seeds|mock|sample)(?:[^a-z]|$)/i;
const UPDATE_SET = /\bupdate\s{1,8}((?:[`"[]?[\w$-]{1,64}[`"\]]?\.){0,2}[`"[]?[\w$-]{1,64}[`"\]]?)\s{1,8}set\s/gi;

/** Whether a statement begins at `i` (after a `;`, a block's keyword, `$$` or `(`; comments skipped). */
export function statementStart(s: string, i: number): boolean {
  return /(?:^|;|\b(?:begin|then|else|do|as)\b|\$\$|\()\s*$/i.test(s.slice(Math.max(0, i - 48), i).replace(/--[^\n]{0,200}$/gm, ""));
}

/** Splits a SET list on top-level commas (not inside quotes or parentheses), at most 32 assignments. */
function assignments(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < body.length && out.length < 32; i++) {
    const c = body[i] as string;
    if (quote !== "") {
      if (c === quote) quote = "";
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "," && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  out.push(body.slice(start));
  return out;
}

/** Values that record a decision, a sign-off or a settlement. */
const DECIDED_VALUE = /^'(?:approved?|released?|matched|cleared|verified|passed|accepted|resolved|closed|paid|settled|reconciled|signed(?:[-_ ]?off)?|compliant|valid|validated|certified|granted|authori[sz]ed|completed?|done|ok)'$/i;

/** The column a WHERE of one column's states compares (`status = 'OPEN'`, `state IN ('A','B')`, ORs of those), or null. */
function stateOnlyColumn(where: string): string | null {
  const parts = where.trim().replace(/;\s{0,8}$/, "").split(/\s{1,8}or\s{1,8}/i);
  let col: string | null = null;
  for (const p of parts.slice(0, 8)) {
    const m = /^\(?\s{0,4}[`"[]?([\w$]{1,64})[`"\]]?\s{0,4}(?:=\s{0,4}'[^']{0,60}'|in\s{0,4}\(\s{0,4}'[^']{0,60}'(?:\s{0,4},\s{0,4}'[^']{0,60}'){0,16}\s{0,4}\))\s{0,4}\)?$/i.exec(p.trim());
    if (!m) return null;
    const c = (m[1] as string).toLowerCase();
    if (col !== null && col !== c) return null;
    col = c;
  }
  return col;
}

/** A SET that writes a decided value into the only column its WHERE selects by (see decidedEveryRow), or null. */
function stateOnlyDecision(set: string, where: string): string | null {
  const col = stateOnlyColumn(where);
  if (col === null || !DECISION_COLUMN.test(col)) return null;
  for (const as of assignments(set)) {
    const eq = as.indexOf("=");
    if (eq < 0) continue;
    if (as.slice(0, eq).trim().replace(/^[\w$]{1,64}\./, "").replace(/[`"[\]]/g, "").toLowerCase() === col && DECIDED_VALUE.test(as.slice(eq + 1).trim())) return col;
  }
  return null;
}

/** An UPDATE without a scope that writes a decision on every row (see above), or null. */
export function decidedEveryRow(s: string, where = ""): string | null {
  if (DISPOSABLE_TABLE.test(where) && !/(?:^|[^a-z])(?:prod|production|prd|live)(?:[^a-z]|$)/i.test(where)) return null;
  UPDATE_SET.lastIndex = 0;
  for (let m, n = 0; (m = UPDATE_SET.exec(s)) !== null && n < 16; n++) {
    if (!statementStart(s, m.index)) continue;
    const table = m[1] as string;
    if (DISPOSABLE_TABLE.test(table)) continue;
    const end = s.indexOf(";", UPDATE_SET.lastIndex);
    const body = s.slice(UPDATE_SET.lastIndex, end < 0 ? Math.min(s.length, UPDATE_SET.lastIndex + 4000) : end);
    const w = /\bwhere\b/i.exec(body);
    if (/\b(?:from|join|limit|returning\s{1,4}\*\s{0,4}where)\b/i.test(body)) continue;
    if (w !== null) {
      // (Seventeenth round) A WHERE that selects rows only by the state the statement rewrites decides every row in
      // that state at once: `SET status = 'RELEASED' … WHERE status IN ('QUARANTINE','OOS')`. Only when the new state
      // is a decision someone answers for (approved, released, matched, paid…); a queue reset (`SET status =
      // 'queued' WHERE status = 'running'`) passes, as does any other condition (an id, a date, a batch).
      const closed = stateOnlyDecision(body.slice(0, w.index), body.slice(w.index + 5));
      if (closed) return `sets ${closed} on every row of ${table.slice(0, 64)} in a state (a WHERE on the state alone)`;
      continue;
    }
    for (const as of assignments(body)) {
      const eq = as.indexOf("=");
      if (eq < 0) continue;
      const col = as.slice(0, eq).trim().replace(/^[\w$]{1,64}\./, "");
      const value = as.slice(eq + 1).trim();
      if (DECISION_COLUMN.test(col) && LITERAL.test(value)) return `sets ${col.slice(0, 40)} on every row of ${table.slice(0, 64)} (an UPDATE without WHERE)`;
    }
  }
  return null;
}
