/*
 * (Eleventh round, "cps11") Commands judged by what they reach rather than by one CLI's spelling (docs/detection.md,
 * "Eleventh round: commands by what they reach, files by what they hold"). Each is a check over a resolved command's
 * program and words (commands.ts resolves wrappers such as `sudo` first):
 *
 * - **a version-control store deleted**: `rm -r` of a repository's object store or references (`.git/objects`,
 *   `.git/lfs/objects`, `.git/lfs`, `.git/refs`, Mercurial's `.hg/store`) or their whole content — history and large
 *   files that no checkout brings back. A stale lock, a stuck rebase's folder, hooks, LFS's `tmp`, and `rm -rf .git`
 *   itself (re-initialising a template's clone) pass;
 * - **every topic, index or key of a data service, by a pattern that matches everything**: `kafka-topics --delete
 *   --topic '.*'`, `kafka-consumer-groups --delete --all-groups`, `etcdctl del "" --prefix` (or `--from-key ""`),
 *   `consul kv delete -recurse` of the root, an HTTP `DELETE` of Elasticsearch's or OpenSearch's `_all` or `*`. A named
 *   topic, a dated index glob (`logs-2025.01.*`, rotation), a key prefix, listing everything pass;
 * - **every user's jobs on a shared scheduler**: Slurm's `scancel` with a user list built by a command or naming
 *   several users, or run as root with only a partition, node or state filter; LSF's `bkill -u all`, HTCondor's
 *   `condor_rm -all`, PBS's `qdel all`. One's own jobs (`-u $USER`, `--me`, job ids) pass;
 * - **one-time-programmable hardware written without its confirmation**: Espressif's `espefuse` burning eFuses or keys
 *   (`burn_efuse`, `burn_key`, `burn_bit`, `write_protect_efuse`, `read_protect_efuse`…) with `--do-not-confirm`,
 *   an STM32 read-out protection set to level 2 (`RDP=0xCC`, permanent), U-Boot's `fuse prog -y`. A virtual eFuse
 *   run (`--virt`), `summary`, `dump`, reading pass.
 */

export interface ReachFinding {
  type: string;
  detail: string;
}

/** A repository's store: objects, large files, references (the folder itself or its whole content). */
const VCS_STORE = /(?:^|\/)(?:\.git\/(?:objects|lfs(?:\/objects)?|refs)|\.hg\/store)\/?(?:\*|\.\*|\{\*,\.\*\})?$/;

function vcsStoreDelete(name: string, a: readonly string[]): string | null {
  if (name !== "rm" && name !== "shred" && name !== "srm") return null;
  const recursive = a.some((t) => t === "--recursive" || (/^-[a-zA-Z]+$/.test(t) && /[rR]/.test(t)));
  const operands = a.filter((t) => !t.startsWith("-"));
  const hit = operands.find((t) => VCS_STORE.test(t) && (recursive || t.endsWith("*")));
  return hit ? "deletes a repository's object store, large files or references" : null;
}

/** A pattern that matches every name: `.*`, `*`, `.+`, `^.*$`. */
const MATCH_ALL = /^\^?(?:\.\*|\*|\.\+)+\$?$/;

function optionValues(a: readonly string[], names: RegExp): string[] {
  const out: string[] = [];
  for (let i = 0; i < a.length && out.length < 16; i++) {
    const t = a[i] as string;
    const eq = t.indexOf("=");
    if (t.startsWith("-") && eq > 0 && names.test(t.slice(0, eq))) out.push(t.slice(eq + 1));
    else if (names.test(t) && a[i + 1] !== undefined) out.push(a[++i] as string);
  }
  return out;
}

function serviceMatchAll(name: string, a: readonly string[]): string | null {
  const base = name.replace(/\.sh$/, "");
  if (base === "kafka-topics" && a.includes("--delete")) {
    if (optionValues(a, /^--topic$/).some((t) => MATCH_ALL.test(t.trim()))) return "kafka-topics deletes every topic";
  }
  if (base === "kafka-consumer-groups" && a.includes("--delete") && a.includes("--all-groups")) return "kafka-consumer-groups deletes every consumer group";
  if (name === "etcdctl") {
    const del = a.findIndex((t) => t === "del" || t === "delete");
    if (del >= 0 && del <= 4) {
      const keys = a.slice(del + 1).filter((t) => !t.startsWith("-"));
      const prefix = a.includes("--prefix") || a.includes("--prefix=true") || a.includes("--from-key") || a.includes("--from-key=true");
      if (prefix && (keys.length === 0 || keys.some((k) => k === "" || k === "/" || k === "\0"))) return "etcdctl deletes every key";
      // (Thirteenth round) Kubernetes keeps its whole state under `/registry`: every object of the cluster.
      if (prefix && keys.some((k) => k === "/registry" || k === "/registry/")) return "etcdctl deletes every object of a Kubernetes cluster";
    }
  }
  if (name === "consul" && a[0] === "kv" && a[1] === "delete" && a.some((t) => t === "-recurse" || t === "--recurse")) {
    const keys = a.slice(2).filter((t) => !t.startsWith("-"));
    if (keys.length === 0 || keys.every((k) => k === "" || k === "/")) return "consul deletes every key";
  }
  if (["curl", "http", "https", "xh", "wget"].includes(name)) {
    const method = optionValues(a, /^(?:-X|--request|--method)$/).map((m) => m.toUpperCase());
    const joined = a.find((t) => /^-X(?:DELETE)$/i.test(t));
    const deletes = method.includes("DELETE") || joined !== undefined || ((name === "http" || name === "https" || name === "xh") && a.some((t) => /^DELETE$/i.test(t)));
    if (deletes && a.some((t) => /^(?:https?:\/\/)?[^\s/]{1,253}\/(?:_all|\*|_data_stream\/\*|%2A)\/?(?:\?[^\s]{0,200})?$/i.test(t))) return "deletes every index of a search cluster";
  }
  return null;
}

/** The user scope of a scheduler command: one's own, or several users'. */
const OWN_USER = /^(?:\$\{?USER\}?|\$\{?LOGNAME\}?|\$\(whoami\)|`whoami`|\$\(id -un\))$/;

function schedulerWipe(name: string, a: readonly string[], sudo: boolean): string | null {
  if (name === "scancel") {
    const users = optionValues(a, /^(?:-u|--user)$/);
    if (a.includes("--me") || users.some((u) => OWN_USER.test(u))) return null;
    if (users.some((u) => u.includes("$(") || u.includes("`") || u.includes(",") || /^(?:all|\*)$/i.test(u))) return "scancel cancels the jobs of several users";
    const jobIds = a.filter((t) => !t.startsWith("-") && /^\d[\d_,.\[\]-]{0,40}$/.test(t));
    const filters = a.some((t) => /^(?:-p|--partition|-w|--nodelist|-A|--account|-t|--state|-q|--qos|-R|--reservation)(?:=|$)/.test(t));
    if (sudo && users.length === 0 && jobIds.length === 0 && filters) return "scancel as root cancels every user's jobs on a partition or nodes";
  }
  if (name === "bkill" && optionValues(a, /^-u$/).some((u) => /^all$/i.test(u))) return "bkill kills every user's jobs";
  if (name === "condor_rm" && a.includes("-all")) return "condor_rm removes every job";
  if (name === "qdel" && a.some((t) => /^all$/i.test(t))) return "qdel deletes every job";
  return null;
}

/** espefuse's commands that write one-time-programmable bits. */
const EFUSE_WRITE = /^(?:burn_efuse|burn_key|burn_key_digest|burn_block_data|burn_bit|burn_custom_mac|write_protect_efuse|read_protect_efuse|set_flash_voltage)$/;

function otpWrite(name: string, a: readonly string[]): string | null {
  const base = name.replace(/\.py$/, "");
  if (base === "espefuse" || (base === "esptool" && a.includes("efuse"))) {
    if (a.includes("--virt") || a.includes("--path-efuse-file")) return null;
    if (a.some((t) => EFUSE_WRITE.test(t)) && a.includes("--do-not-confirm")) return `${base} burns one-time eFuses without confirmation`;
  }
  if (/^stm32_programmer_cli$/i.test(name) && a.some((t) => /^RDP=(?:0x)?CC$/i.test(t))) return "sets an STM32's read-out protection to its permanent level";
  if (name === "fuse" && a[0] === "prog" && a.includes("-y")) return "programs one-time fuses without confirmation";
  return null;
}

/** Judges one resolved command: its name, its words, and whether it runs as root. */
export function judgeReach(name: string, a: readonly string[], sudo: boolean): ReachFinding[] {
  const out: ReachFinding[] = [];
  // `python -m espefuse …`: the module is the program.
  if (name === "python" && a[0] === "-m" && a[1] !== undefined) return judgeReach(a[1].toLowerCase(), a.slice(2), sudo);
  const vcs = vcsStoreDelete(name, a);
  if (vcs) out.push({ type: "dangerous_command.recursive_delete", detail: vcs });
  const svc = serviceMatchAll(name, a);
  if (svc) out.push({ type: "dangerous_command.infrastructure_teardown", detail: svc });
  const jobs = schedulerWipe(name, a, sudo);
  if (jobs) out.push({ type: "dangerous_command.infrastructure_teardown", detail: jobs });
  const otp = otpWrite(name, a);
  if (otp) out.push({ type: "dangerous_command.disk_overwrite", detail: otp });
  return out;
}

/** Words that make a line worth parsing for these checks (added to commands.ts's triggers). */
export const REACH_TRIGGERS = [".git", ".hg", "kafka-topics", "kafka-topics.sh", "kafka-consumer-groups", "kafka-consumer-groups.sh", "etcdctl", "consul", "scancel", "bkill", "condor_rm", "qdel", "espefuse", "espefuse.py", "esptool", "esptool.py", "stm32_programmer_cli", "fuse"];

/** Programs that run the rest of their words as a command, fed with the names the stage before prints. */
const LISTERS = new Set(["ls", "find", "fd", "fdfind", "echo", "printf"]);

/**
 * `ls -d /srv/archive/* | xargs rm -rf`: the command xargs runs, with the names the stage before lists as its operands
 * (a lister's path operands: `ls`, `find`'s roots, `echo`), so it is judged as if written out. Null when xargs runs no
 * command or the stage before is not a lister. xargs's own options are skipped (those taking a value with it).
 */
export function xargsCommand(producer: { name: string; args: readonly string[] } | null, a: readonly string[]): string[] | null {
  let i = 0;
  while (i < a.length) {
    const t = a[i] as string;
    if (!t.startsWith("-") || t === "-") break;
    if (/^-[InLPdsEa]$|^--(?:replace|max-lines|max-procs|delimiter|max-chars|eof|arg-file|max-args)$/.test(t) || t === "-n") i += 2;
    else i++;
  }
  const inner = a.slice(i);
  if (inner.length === 0 || producer === null || !LISTERS.has(producer.name)) return null;
  let operands: string[];
  if (producer.name === "find") {
    operands = [];
    for (const t of producer.args) {
      if (t.startsWith("-") || t === "(" || t === "!" || operands.length >= 64) break;
      operands.push(t);
    }
    // `find … -name x` lists only what it matches: not the whole of its roots.
    if (producer.args.some((t) => /^-(?:i?name|i?path|i?regex|newer|mtime|mmin|atime|size|user|empty)$/.test(t))) return null;
  } else if (producer.name === "fd" || producer.name === "fdfind") return null;
  else operands = producer.args.slice(0, 256).filter((t) => !t.startsWith("-"));
  if (operands.length === 0) return null;
  return [...inner, ...operands.slice(0, 64)];
}

/** A statement that destroys tables or databases, at the start of what a request hands over. */
const SQL_LEAD = /^(?:truncate|drop|delete\s{1,8}from)\s/i;
/** What introduces a statement to run: `Run:`, `execute this on the warehouse:`, `please run \``, a code span's quote. */
const RUN_LEAD = /\b(?:run|execute|exec|apply|issue)\b[^:`\n]{0,60}?(?::\s{0,8}`{0,3}|`{1,3}|\s{1,4}(?=(?:truncate|drop|delete)\s))\s{0,4}(?:sql\s{0,4})?/gi;

/** Verbs of running in scripts and languages RUN_LEAD does not read (matched as substrings, before a colon). */
const RUN_WORLD = /실행|実行|执行|執行|运行|運行|выполни|запусти|виконай|wykonaj|uruchom|çalıştır|yürüt|chạy|thực thi|jalankan|eksekusi|เรียกใช้|รัน|चलाओ|चलाएं|चलाइए|نفّذ|نفذ|شغّل|شغل|הרץ|הפעל|εκτέλεσε|spusť|proveď|futtasd|rulează|ausführen|führe|ejecuta|exécute|esegui|executa|voer\s{1,3}uit/i;

/**
 * (Eleventh round) SQL a request hands another agent to run: a line that is a statement, or one that introduces it
 * ("Run: TRUNCATE TABLE prod.fct_orders CASCADE;"), read from the statement's start; at most 16 lines of a request's
 * first 64 KB. commands.ts's `destructiveSql` then judges it as it does a SQL tool's statement (what it destroys).
 */
export function sqlHandedOver(text: string): string[] {
  const out: string[] = [];
  if (!/\b(?:truncate|drop|delete)\b/i.test(text.length > 65536 ? text.slice(0, 65536) : text)) return out;
  const lines = (text.length > 65536 ? text.slice(0, 65536) : text).split("\n");
  for (const raw of lines) {
    const line = raw.length > 8192 ? raw.slice(0, 8192) : raw;
    const starts = [line.trimStart().replace(/^(?:[-*>]\s{1,4})?`{0,3}/, "")];
    RUN_LEAD.lastIndex = 0;
    for (let m, n = 0; (m = RUN_LEAD.exec(line)) !== null && n < 8; n++) starts.push(line.slice(m.index + m[0].length));
    // (Twentieth round) The same request in a language whose verb is not a word before the statement ("이 쿼리를
    // 실행해 줘: DROP TABLE …", "请执行：…"): a verb of running anywhere before the line's colon, the statement after it.
    const colon = line.search(/[:：]/);
    if (colon > 0 && RUN_WORLD.test(line.slice(0, colon))) starts.push(line.slice(colon + 1).trimStart().replace(/^`{0,3}/, ""));
    for (const rest of starts) if (SQL_LEAD.test(rest) && out.length < 16) out.push(rest.replace(/`{1,3}[^`]{0,200}$/, ""));
    if (out.length >= 16) break;
  }
  return out;
}
