/*
 * (Twentieth round, "cps20") SQL that erases a live table's data without any real scope (docs/detection.md,
 * "Twentieth round: what a statement erases, whatever language hands it over"). commands.ts's `destructiveSql`
 * calls it after the older judgements, for a SQL tool's statement, a database client's `-c`/`-e`, and SQL a request
 * hands another agent. Three judgements, none of them keyed to a table's or a column's domain:
 *
 * - **a filter that is always true** is no filter: `DELETE … WHERE 1=1`, `WHERE true`, `WHERE 'a'='a'`, `WHERE id = id`
 *   deletes every row, as a DELETE without WHERE does; an UPDATE so "scoped" that writes a literal rewrites every row.
 *   A tautology followed by a real condition (`WHERE 1=1 AND id = 7`, a query builder's habit) is a scope and passes;
 * - **a column's values erased on every row**: an UPDATE without WHERE (nor FROM, JOIN, LIMIT) that writes zero,
 *   NULL or an empty string into a column destroys what every row held there, as a delete of that column's data
 *   would. Counters, which exist to be reset (`hits`, `retry_count`, `failed_logins`…), pass, and so does a value
 *   computed from the row (`SET total = price * qty`);
 * - **a live table dropped**: `DROP TABLE t` (or a list) removes the rows and the definition at once. A migration's
 *   guarded `IF EXISTS`, a table the same text creates again (a rebuild), and tables or databases named as scratch,
 *   temporary, backup, import, development or test pass, as before;
 * - (Twenty-first round, "cps21") **a live table emptied**: `TRUNCATE [TABLE] t` removes every row as a drop does,
 *   keeping only the definition; it is judged as the drop is. A table the same text fills again (`INSERT INTO t`,
 *   `COPY t FROM`, `LOAD DATA … INTO TABLE t`: a reload) and disposable tables pass.
 *
 * Linear: bounded regexes, at most 16 statements of each kind per text, the first 64 KB.
 */

import { statementStart } from "./commands-unfiltered.js";

const MAX_SQL = 65536;
/** Tables and databases named as made to be thrown away (test, scratch, temporary, backup, import, staging). */
const DISPOSABLE = /(?:^|[^a-z])(?:test|tests|testing|dev|development|local|tmp|temp|old|bak|backup|copy|scratch|sandbox|ci|e2e|fixtures?|demo|example|staging|stage|stg|seed|seeds|mock|sample|import|imports|migration|cache)(?:[^a-z]|$)/i;
const TABLE = "((?:[`\"\\[]?[\\w$-]{1,64}[`\"\\]]?\\.){0,2}[`\"\\[]?[\\w$-]{1,64}[`\"\\]]?)";
const DELETE_WHERE = new RegExp(`\\bdelete\\s{1,8}from\\s{1,8}${TABLE}\\s{1,8}where\\s{1,8}([^;]{1,120}?)\\s{0,8}(?:;|$)`, "gi");
const UPDATE_SET = new RegExp(`\\bupdate\\s{1,8}${TABLE}\\s{1,8}set\\s`, "gi");
const DROP_TABLE = /\bdrop\s{1,8}table\s{1,8}(if\s{1,8}exists\s{1,8})?([`"[]?[\w.$-]{1,128}[`"\]]?(?:\s{0,4},\s{0,4}[`"[]?[\w.$-]{1,128}[`"\]]?){0,8})/gi;
const TRUNCATE_TABLE = /\btruncate\s{1,8}(?:table\s{1,8})?(?:only\s{1,8})?([`"[]?[\w.$-]{1,128}[`"\]]?(?:\s{0,4},\s{0,4}[`"[]?[\w.$-]{1,128}[`"\]]?){0,8})/gi;
/** Counters: made to be reset to zero. */
const COUNTER = /(?:count|counter|hits|views|attempts|retries|retry|tries|failures|failed_logins|unread|streak|usage|used|quota_used|login_attempts|errors|bounces|clicks|impressions)s?$/i;
/** What erases a value: zero, NULL, an empty string. */
const ERASING = /^(?:0|0\.0{1,8}|-0|null|''|""|N'')$/i;

/** A condition that holds for every row: `1=1`, `true`, `1`, `'a'='a'`, `id = id`, `1 <> 0`, alone. */
export function alwaysTrue(cond: string): boolean {
  const c = cond.trim().replace(/^\(\s{0,4}/, "").replace(/\s{0,4}\)$/, "");
  if (/^(?:true|1|not\s{1,4}false)$/i.test(c)) return true;
  const m = /^('[^']{0,40}'|-?\d{1,12}|[\w$.]{1,64})\s{0,4}(=|<>|!=)\s{0,4}('[^']{0,40}'|-?\d{1,12}|[\w$.]{1,64})$/.exec(c);
  if (m === null) return false;
  const [a, op, b] = [m[1] as string, m[2] as string, m[3] as string];
  if (op === "=") return a.toLowerCase() === b.toLowerCase();
  // `1 <> 0`: two different constants compared as different.
  return /^(?:'|-?\d)/.test(a) && /^(?:'|-?\d)/.test(b) && a !== b;
}

/** Splits a SET list on top-level commas (not inside quotes or parentheses), at most 32 assignments. */
function assignments(body: string): [string, string][] {
  const out: [string, string][] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  const add = (part: string) => {
    const eq = part.indexOf("=");
    if (eq > 0) out.push([part.slice(0, eq).trim().replace(/^[\w$]{1,64}\./, "").replace(/[`"[\]]/g, ""), part.slice(eq + 1).trim()]);
  };
  for (let i = 0; i < body.length && out.length < 32; i++) {
    const c = body[i] as string;
    if (quote !== "") {
      if (c === quote) quote = "";
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "," && depth === 0) {
      add(body.slice(start, i));
      start = i + 1;
    }
  }
  add(body.slice(start));
  return out;
}

const LITERAL = /^(?:'[^']{0,200}'|N'[^']{0,200}'|-?\d{1,18}(?:\.\d{1,8})?|true|false|null)$/i;

/** What an unscoped statement erases (see above), or null. `where` names the database when known. */
export function erasedSql(sql: string, where = ""): string | null {
  if (DISPOSABLE.test(where) && !/(?:^|[^a-z])(?:prod|production|prd|live)(?:[^a-z]|$)/i.test(where)) return null;
  const s = sql.length > MAX_SQL ? sql.slice(0, MAX_SQL) : sql;
  const lower = s.toLowerCase();
  if (lower.includes("delete")) {
    DELETE_WHERE.lastIndex = 0;
    for (let m, n = 0; (m = DELETE_WHERE.exec(s)) !== null && n < 16; n++) {
      if (!statementStart(s, m.index) || DISPOSABLE.test(m[1] as string)) continue;
      if (alwaysTrue(m[2] as string)) return `deletes every row of ${(m[1] as string).slice(0, 64)} (a WHERE that is always true)`;
    }
  }
  if (lower.includes("update")) {
    UPDATE_SET.lastIndex = 0;
    for (let m, n = 0; (m = UPDATE_SET.exec(s)) !== null && n < 16; n++) {
      if (!statementStart(s, m.index)) continue;
      const table = m[1] as string;
      if (DISPOSABLE.test(table)) continue;
      const end = s.indexOf(";", UPDATE_SET.lastIndex);
      const body = s.slice(UPDATE_SET.lastIndex, end < 0 ? Math.min(s.length, UPDATE_SET.lastIndex + 4000) : end);
      if (/\b(?:from|join|limit)\b/i.test(body)) continue;
      const w = /\bwhere\b/i.exec(body);
      const set = assignments(w === null ? body : body.slice(0, w.index));
      if (w !== null) {
        if (alwaysTrue(body.slice(w.index + 5)) && set.some(([, v]) => LITERAL.test(v))) return `rewrites every row of ${table.slice(0, 64)} (a WHERE that is always true)`;
        continue;
      }
      const erased = set.find(([c, v]) => ERASING.test(v) && !COUNTER.test(c));
      if (erased) return `erases ${erased[0].slice(0, 40)} on every row of ${table.slice(0, 64)} (an UPDATE without WHERE)`;
    }
  }
  if (lower.includes("drop")) {
    DROP_TABLE.lastIndex = 0;
    for (let m, n = 0; (m = DROP_TABLE.exec(s)) !== null && n < 16; n++) {
      if (m[1] !== undefined || !statementStart(s, m.index)) continue;
      const tables = (m[2] as string).split(",").map((t) => t.trim().replace(/[`"[\]]/g, ""));
      const live = tables.find((t) => t !== "" && !DISPOSABLE.test(t) && !createdAgain(lower, t.toLowerCase(), m.index));
      if (live !== undefined) return `drops the table ${live.slice(0, 64)} and every row in it`;
    }
  }
  if (lower.includes("truncate")) {
    TRUNCATE_TABLE.lastIndex = 0;
    for (let m, n = 0; (m = TRUNCATE_TABLE.exec(s)) !== null && n < 16; n++) {
      if (!statementStart(s, m.index)) continue;
      const tables = (m[1] as string).split(",").map((t) => t.trim().replace(/[`"[\]]/g, ""));
      const live = tables.find((t) => t !== "" && !t.startsWith("-") && !/^(?:table|only|if)$/i.test(t) && !DISPOSABLE.test(t) && !filledAgain(lower, t.toLowerCase(), m.index));
      if (live !== undefined) return `empties the table ${live.slice(0, 64)} of every row`;
    }
  }
  return null;
}

/** Whether the text fills the emptied table again after emptying it (a reload), or creates it again. */
function filledAgain(lower: string, table: string, from: number): boolean {
  const rest = lower.slice(from, from + 8000);
  if (!/\b(?:insert|copy|load\s{1,8}data|create\s{1,8}table)\b/.test(rest)) return false;
  const bare = table.replace(/^.*\./, "").replace(/[$-]/g, "\\$&");
  return new RegExp(`\\b(?:insert\\s{1,8}(?:into\\s{1,8})?|copy\\s{1,8}|into\\s{1,8}table\\s{1,8}|create\\s{1,8}table\\s{1,8}(?:if\\s{1,8}not\\s{1,8}exists\\s{1,8})?)(?:[\\w$]{1,64}\\.){0,2}[\`"\\[]?${bare}\\b`).test(rest);
}

/** Whether the text creates the dropped table again after the drop (a rebuild). */
function createdAgain(lower: string, table: string, from: number): boolean {
  const rest = lower.slice(from, from + 8000);
  const at = rest.indexOf("create table");
  if (at < 0) return false;
  const bare = table.replace(/^.*\./, "");
  return new RegExp(`\\bcreate\\s{1,8}table\\s{1,8}(?:if\\s{1,8}not\\s{1,8}exists\\s{1,8})?(?:[\\w$]{1,64}\\.){0,2}[\`"\\[]?${bare.replace(/[$-]/g, "\\$&")}\\b`).test(rest);
}
