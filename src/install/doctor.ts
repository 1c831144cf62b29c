import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute } from "node:path";
import { parsePins } from "../guardian/state.js";
import { findClientConfigs, listServers, type Where } from "./clients.js";
import { defaultWrapLog, routeName, unwrap, wrapFlags } from "./wrap-entry.js";

/*
 * doctor: is every server guarded, and would the guarded ones start? Each finding says what to do. Nothing here
 * writes; the rules are loaded through the caller's `checkRules` (the cli's loader).
 */

export interface Finding {
  ok: boolean;
  what: string;
  /** For a problem: what to do about it. For a note: how to go further. */
  fix?: string;
  /** Worth knowing, but nothing guardwire set up is broken: a remote server install cannot wrap (ok stays true). */
  note?: boolean;
}

export interface DoctorInput extends Where {
  /** `process.versions.node`. */
  nodeVersion: string;
  /** The pins file `wrap` uses when none is given. */
  pins: string;
  /** Loads these rules (default pack when empty); returns what is wrong, or undefined. */
  checkRules: (rules: string[]) => string | undefined;
}

const MIN_NODE = [20, 19] as const;

export function doctor(o: DoctorInput): Finding[] {
  const findings: Finding[] = [nodeFinding(o.nodeVersion)];
  const guarded: string[][] = [];
  const configs = findClientConfigs(o);
  if (configs.length === 0) findings.push({ ok: true, what: "no MCP client config found for this user or in this folder" });
  for (const config of configs) {
    const where = `${config.client} ${config.path}${config.serversPath[0] === "projects" ? ` (project ${config.project})` : ""}`;
    let servers;
    try {
      servers = listServers(config);
    } catch (e) {
      findings.push({ ok: false, what: `${where}: cannot be read: ${(e as Error).message}`, fix: "fix the file at that line and column" });
      continue;
    }
    for (const s of servers) {
      const inner = s.command !== undefined ? unwrap({ command: s.command, args: s.args ?? [] }) : undefined;
      if (s.kind === "stdio" && inner) {
        findings.push({ ok: true, what: `${where}: "${s.name}" is guarded` });
        guarded.push([s.command as string, ...(s.args ?? [])]);
      } else if (s.kind === "stdio") findings.push({ ok: false, what: `${where}: "${s.name}" is NOT guarded`, fix: `guardwire install --client ${config.client}` });
      else if (s.kind === "remote")
        findings.push({
          ok: true,
          note: true,
          what: `${where}: remote server "${s.name}" (${s.url}) is NOT guarded: install cannot wrap a server it does not start`,
          fix: "to guard it, add it as a route of `guardwire serve` and point the client at the route (docs/serve.md)",
        });
    }
  }
  findings.push(...guardedFindings(guarded, o), pinsFinding(o.pins));
  return findings;
}

/** The guarded servers' own settings: the guardwire they run, their logs, their rules (each distinct one once). */
function guardedFindings(launches: string[][], o: DoctorInput): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  const once = (key: string, f: () => Finding | undefined) => {
    if (seen.has(key)) return;
    seen.add(key);
    const finding = f();
    if (finding) out.push(finding);
  };
  for (const tokens of launches) {
    const at = tokens.indexOf("wrap");
    const opts = wrapFlags(tokens);
    for (const t of tokens.slice(0, at).filter((t) => isAbsolute(t))) {
      once(`exe ${t}`, () => (existsSync(t) ? undefined : { ok: false, what: `guarded servers run ${t}, which does not exist`, fix: "run `guardwire install` again from the guardwire you use now" }));
    }
    const inner = tokens.indexOf("--", at);
    const [cmd, ...args] = inner < 0 ? [] : tokens.slice(inner + 1);
    const log = opts.log ?? defaultWrapLog(opts.name ?? (cmd ? routeName(cmd, args) : "server"));
    once(`log ${log}`, () => logFinding(log));
    once(`rules ${opts.rules.join("\0")}`, () => {
      const problem = o.checkRules(opts.rules);
      const named = opts.rules.length > 0 ? opts.rules.join(", ") : "the default pack (balanced)";
      return problem ? { ok: false, what: `rules ${named} do not load: ${problem}`, fix: "`guardwire check <rules>` lists each problem; fix them or install with other --rules" } : { ok: true, what: `rules load: ${named}` };
    });
  }
  return out;
}


function logFinding(log: string): Finding {
  if (log === "-") return { ok: true, what: "a guarded server logs to stderr (--log -)" };
  // The log, or the nearest folder that exists (wrap creates the missing ones), must be writable.
  let target = log;
  while (!existsSync(target) && dirname(target) !== target) target = dirname(target);
  try {
    accessSync(target, constants.W_OK);
    if (target !== log || statSync(log).isFile()) return { ok: true, what: `log writable: ${log}` };
    return { ok: false, what: `log ${log} is not a file`, fix: "install again with --log <a folder>" };
  } catch {
    return { ok: false, what: `log ${log} is not writable (${target})`, fix: `make ${target} writable, or install again with --log <a writable folder>` };
  }
}

function pinsFinding(pins: string): Finding {
  if (!existsSync(pins)) return { ok: true, what: `pins file ${pins}: none yet (tools are pinned when first listed)` };
  try {
    parsePins(readFileSync(pins, "utf8"));
    return { ok: true, what: `pins file readable: ${pins}` };
  } catch (e) {
    return { ok: false, what: `pins file ${pins} cannot be read: ${(e as Error).message}`, fix: `move it aside or run \`guardwire pins reset\`; tools are pinned again when next listed` };
  }
}

function nodeFinding(version: string): Finding {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return ok ? { ok, what: `Node ${version}` } : { ok, what: `Node ${version} is too old`, fix: `install Node ${MIN_NODE.join(".")} or newer` };
}
