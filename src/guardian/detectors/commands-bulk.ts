import type { CatalogCheck } from "./commands-catalog.js";

/*
 * (Seventeenth round, "cp17") An ordinary operation of a domain turned against its user, judged by what it reaches
 * and what it hides, not by the domain's nouns (docs/detection.md, "Seventeenth round: commands and paths by what they reach and unlock ("cp17")"):
 *
 * - **every resource a listing returns, deleted one by one** (`.recursive_delete`): a cloud or cluster CLI's listing
 *   fed to the same CLI's delete, through `for x in $(… list …); do … delete …; done` or `… list … | xargs … delete`.
 *   The listing has no filter (no `--filter`, selector, `grep`, query condition, prefix or tag), so the loop's scope
 *   is the whole account. A filtered listing passes, and so do local container cleanups (`docker rm $(docker ps -aq)`);
 * - **a stored password read by its value's name** (`.credential_dump`): `reg query … /v <…Password>`,
 *   `Get-ItemProperty … -Name <…Password…>`: remote-access tools, auto-logon and services keep their passwords in
 *   registry values named so. Policy values that only mention passwords (`LimitBlankPasswordUse`,
 *   `PasswordExpiryWarning`) do not end with the word and pass;
 * - **a device's firmware flash erased with nothing written back** (`.disk_format`): `flash_erase`/`flash_eraseall` of
 *   an MTD device, `mtd erase`, `blkdiscard`, `nvme format`, `sg_format`. An erase followed in the line by a write of
 *   an image to the device (`nandwrite`, `flashcp`, `mtd write`: a firmware update) passes;
 * - **the audit trail's rows deleted** (`.database_destroy`, from SQL sites): `DELETE FROM` or `TRUNCATE` of a table
 *   named for an audit trail or a security, access or change log, unless the condition keeps only old rows (a
 *   retention purge: `WHERE created_at < now() - interval '7 years'`). Whoever deletes the recent rows of the record
 *   of changes hides what was changed.
 *
 * - **a safety function defeated on a running machine** (`.defense_evasion`): code or a command that writes "on" (`True`,
 *   `1`, `ON`) to a tag, point or variable whose name pairs a bypass word (bypass, override, mute, inhibit, defeat,
 *   jumper, force) with a safety word (safety, interlock, guard, e-stop, emergency, ESD, SIS, light curtain, trip,
 *   lockout, fire, gas, alarm) — any PLC, OPC UA, Modbus or BMS library's write. Writing "off" (the bypass removed),
 *   reads, and writes to other tags (a set point) pass.
 *
 * Every pattern is linear and bounded, and runs only where its literal is.
 */

/** Cloud and cluster CLIs whose listings name remote resources (not local containers). */
const CLI = String.raw`(?:aws|gcloud|az|kubectl|oc|doctl|hcloud|openstack|linode-cli|scw|vultr-cli|ibmcloud|oci|heroku|flyctl|fly|gh|glab|aliyun|hcloud|tccli|exo|civo|upcloud)`;
/** A verb that destroys, as CLIs spell it (`delete-fleet`, `rb`, `terminate-instances`, `destroy`). */
const DESTROY = String.raw`\b(?:delete|destroy|terminate|remove|rm|rb|deregister|purge|deprovision)(?:-[\w-]{1,40})?\b`;
/** A listing's filter: what narrows its scope below the whole account. */
const FILTERED = /--filter|--selector|\s-l\s|--label|\bgrep\b|\?\s{0,2}[\w(]|starts_with|contains\(|--prefix|--tag|--name-prefix|\bselect\(|\b(?:test|dev|preview|staging|sandbox|tmp|temp|ci|e2e|demo)\b/i;

/** One character of a listing's words, or a whole quoted word (`--format='value(name)'`). */
const ARG = String.raw`(?:[^()'"\n]|'[^'\n]{0,120}'|"[^"\n]{0,120}")`;

const FOR_LIST = new RegExp(String.raw`\bfor\s{1,4}\w{1,40}\s{1,4}in\s{1,4}\$\(\s{0,4}(${CLI}\s${ARG}{0,300}?\b(?:list|ls|get)(?:-[\w-]{1,40})?\b${ARG}{0,300})\)\s{0,4};?\s{0,4}do\b[^\n]{0,300}?\b${CLI}\s[^\n;]{0,200}?${DESTROY}`, "gi");
const XARGS_LIST = new RegExp(String.raw`(?:^|[;&|(]\s{0,4})(${CLI}\s[^|;&\n]{0,300}?\b(?:list|ls|get)(?:-[\w-]{1,40})?\b[^|;&\n]{0,300})\|(?:[^|;&\n]{0,200}\|){0,3}\s{0,4}xargs\b[^|;&\n]{0,200}?\b${CLI}\s[^|;&\n]{0,200}?${DESTROY}`, "gi");

/** A listing fed to a delete, unfiltered (see above), or null. */
function enumeratedDelete(text: string): { start: number; end: number } | null {
  for (const re of [FOR_LIST, XARGS_LIST]) {
    re.lastIndex = 0;
    for (let m, n = 0; (m = re.exec(text)) !== null && n < 8; n++) {
      const listing = m[1] as string;
      if (FILTERED.test(listing) || /\bget\s{1,4}(?:pods?|po)\b/i.test(listing)) continue;
      return { start: m.index, end: m.index + m[0].length };
    }
  }
  return null;
}

export const BULK_TEXT_CHECKS: CatalogCheck[] = [
  {
    type: "dangerous_command.download_execute",
    detail: "code that loads and runs a program from a URL (a language's own download-and-run)",
    needs: ["http", "ftp:"],
    re: /(?:^|[^\w.$])(?:source|source_url|include|include_once|require|require_once|load|loadfile|dofile|exec|eval|execfile|runpy\.run_path|import_module)\s{0,4}\(?\s{0,4}(?:(?:parse|compile|url|download|urlopen|URI\.open|open|file_get_contents|fetch|readLines|request\.urlopen|urllib\.request\.urlopen|requests\.get|httr::GET|curl::curl)\s{0,4}\(\s{0,4}(?:text\s{0,2}=\s{0,2}|file\s{0,2}=\s{0,2})?){0,2}["'](?:https?|ftp):\/\/(?!(?:localhost|127\.0\.0\.1)[:/])/gi,
  },
  {
    type: "dangerous_command.credential_dump",
    detail: "reads a password stored in a registry value",
    needs: ["password", "passwd", "pwd"],
    re: /\b(?:reg(?:\.exe)?\s{1,4}query\b[^\n;&|]{0,300}?\s\/v\s{1,4}["']?|(?:Get-ItemProperty(?:Value)?|gp|gpv)\b[^\n;&|]{0,300}?\s-Name\s{1,4}(?:["']?[\w.-]{1,60}["']?\s{0,2},\s{0,2}){0,8}["']?)[\w.-]{0,60}(?:Password|Passwd|Pwd)(?:AES|Hash|Enc|Encrypted|Cipher)?(?=["'\s,;]|$)/gi,
  },
  {
    type: "dangerous_command.disk_format",
    detail: "erases a device's flash or disk with nothing written back",
    needs: ["flash_erase", "mtd", "blkdiscard", "nvme", "sg_format"],
    re: /\b(?:flash_erase(?:all)?\s{1,4}(?:-[\w-]{1,20}\s{1,4}){0,4}\/dev\/mtd|mtd\s{1,4}(?:-\w{1,10}\s{1,4}){0,3}erase\s|blkdiscard\s{1,4}(?:-[\w-]{1,20}\s{1,4}){0,4}\/dev\/|nvme\s{1,4}format\s{1,4}(?:-[\w-]{1,20}\s{1,4}){0,4}\/dev\/|sg_format\s{1,4}(?:-[\w-]{1,20}\s{1,4}){0,4}--format)(?![^\n]{0,400}\b(?:nandwrite|flashcp|mtd\s{1,4}(?:-\w{1,10}\s{1,4}){0,3}write|dd\s[^\n]{0,100}\bof=\/dev\/mtd))/gi,
  },
];

/** The enumeration check, in the shape of a text check (its own function: two patterns and a filter test). */
export function bulkEnumerationDelete(text: string): { type: string; detail: string; start: number; end: number } | null {
  const lower = text.includes("xargs") || /\bdo\b/.test(text);
  if (!lower || !/delete|destroy|terminate|remove|\brm\b|\brb\b|deregister|purge|deprovision/i.test(text)) return null;
  const at = enumeratedDelete(text);
  return at ? { type: "dangerous_command.recursive_delete", detail: "deletes every resource a listing returns, one by one", ...at } : null;
}

/** Tables that hold the record of changes or of access. */
const AUDIT_TABLE = /^(?:[\w$]{1,64}\.){0,2}[`"[]?[\w$]{0,40}(?:audit|(?:security|access|change|login|activity|admin)_?(?:log|logs|history|events))[\w$]{0,40}[`"\]]?$/i;
const AUDIT_DELETE = /\b(?:delete\s{1,8}from|truncate\s{1,8}(?:table\s{1,8})?)\s{0,8}((?:[`"[]?[\w$]{1,64}[`"\]]?\.){0,2}[`"[]?[\w$]{1,64}[`"\]]?)([^;]{0,600})/gi;
/** A condition that keeps only old rows: a retention purge. */
const OLD_ROWS = /\bwhere\b[^;]{0,300}?(?:<|\bbefore\b|\bolder\b)\s{0,4}=?\s{0,4}(?:now\(\)|current_(?:date|timestamp)|sysdate|getdate\(\)|dateadd|date_sub|date\(|'\d{4}-|\d{4}-\d{2}|\(|:\w|\$\d|\?)/i;

/** A DELETE or TRUNCATE of the audit trail that is not a retention purge (see above), or null. */
export function auditErased(sql: string): string | null {
  if (!/audit|_log|_history|_events|log\b|logs\b/i.test(sql)) return null;
  AUDIT_DELETE.lastIndex = 0;
  for (let m, n = 0; (m = AUDIT_DELETE.exec(sql)) !== null && n < 16; n++) {
    const table = m[1] as string;
    if (!AUDIT_TABLE.test(table)) continue;
    if (/^\s{0,8}where\b/i.test(m[2] as string) && OLD_ROWS.test(m[2] as string)) continue;
    return `deletes rows of the audit trail ${table.slice(0, 64)}`;
  }
  return null;
}

const SAFETY_WRITE = /\b(?:write|write_tag|writetag|write_coil|write_register|write_value|writevalue|set_value|setvalue|write_point|writepoint|set)\s{0,2}\(\s{0,2}(?:[\w.]{1,40}\s{0,2},\s{0,2}){0,2}["']([^"'\n]{1,160})["']\s{0,2},\s{0,2}(?:value\s{0,2}=\s{0,2})?["']?(True|true|TRUE|1|ON|On|on)\b/gi;
/** OPC UA's and similar libraries' node handle written in place: `get_node("…").set_value(True)`. */
const SAFETY_NODE = /\b(?:get_node|getnode|node|tag|point)\s{0,2}\(\s{0,2}["']([^"'\n]{1,160})["']\s{0,2}\)\s{0,2}\.\s{0,2}(?:set_value|setvalue|write_value|writevalue|write|set)\s{0,2}\(\s{0,2}["']?(True|true|TRUE|1|ON|On|on)\b/gi;
const BYPASS_WORD = /bypass|override|mute|muting|inhibit|defeat|jumper|forced?(?:_?on)?\b/i;
const SAFETY_WORD = /safety|interlock|guard|e_?stop|emergency|\besd|(?:^|[._\s-])sis(?:$|[._\s-])|light_?curtain|trip|lockout|fire|gas|alarm|door/i;

/** A safety function's bypass switched on by a write (see above), or null. */
export function safetyDefeated(text: string): { type: string; detail: string; start: number; end: number } | null {
  if (!/bypass|override|mute|muting|inhibit|defeat|jumper|force/i.test(text)) return null;
  for (const re of [SAFETY_WRITE, SAFETY_NODE]) {
    re.lastIndex = 0;
    for (let m, n = 0; (m = re.exec(text)) !== null && n < 32; n++) {
      const name = m[1] as string;
      if (BYPASS_WORD.test(name) && SAFETY_WORD.test(name)) return { type: "dangerous_command.defense_evasion", detail: "switches on the bypass of a safety function", start: m.index, end: m.index + m[0].length };
    }
  }
  return null;
}
