import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { GuardwireError } from "../errors.js";
import { packageFile } from "../package-files.js";
import { CLIENTS, type ClientName, type Where } from "../install/clients.js";
import { doctor } from "../install/doctor.js";
import { install, uninstall, type FileReport, type State } from "../install/install.js";
import { describeProblems, loadRulesOrThrow, readAndLoadRules, rulesOrDefault } from "./rules.js";

/* `guardwire install`, `uninstall` and `doctor`: the process's home, platform, environment and folder go in here. */

export interface InstallCommandOptions {
  client?: string[];
  all?: boolean;
  rules?: string[];
  log?: string;
  dryRun: boolean;
  onPath: boolean;
}

const stateDir = () => join(homedir(), ".guardwire");

function where(clients: string[] | undefined): Where {
  for (const c of clients ?? []) {
    if (!(CLIENTS as readonly string[]).includes(c)) throw new GuardwireError("USAGE", `unknown client "${c}" (known: ${CLIENTS.join(", ")})`);
  }
  return { home: homedir(), platform: process.platform, env: process.env, cwd: process.cwd(), clients: clients as ClientName[] | undefined };
}

function state(dryRun: boolean): State {
  return { manifest: join(stateDir(), "installed.json"), backups: join(stateDir(), "backups"), now: () => new Date(), dryRun };
}

export function runInstall(o: InstallCommandOptions): number {
  if (o.all && o.client) throw new GuardwireError("USAGE", "use --client or --all, not both");
  // A rule path is made absolute (the client starts servers from its own folder); a pack name stays a name.
  const rules = (o.rules ?? []).map((r) => (existsSync(resolve(r)) ? resolve(r) : r));
  loadRulesOrThrow(rules);
  // By default the entries run this very guardwire with this Node, by absolute path: desktop apps do not see a shell's PATH.
  const guardwire = o.onPath ? ["guardwire"] : [process.execPath, packageFile("dist", "cli", "main.js")];
  const reports = install(where(o.client), { guardwire, logDir: resolve(o.log ?? join(stateDir(), "logs")), rules }, state(o.dryRun));
  return print(reports, o.dryRun, "install");
}

export function runUninstall(o: { client?: string[]; dryRun: boolean }): number {
  where(o.client);
  return print(uninstall(o.client as ClientName[] | undefined, state(o.dryRun)), o.dryRun, "uninstall");
}

export function runDoctor(o: { client?: string[]; pins: string }): number {
  const findings = doctor({
    ...where(o.client),
    nodeVersion: process.versions.node,
    pins: o.pins,
    checkRules: (rules) => {
      try {
        const { ruleSet, problems } = readAndLoadRules(rulesOrDefault(rules));
        return ruleSet ? undefined : describeProblems(problems);
      } catch (e) {
        return (e as Error).message;
      }
    },
  });
  for (const f of findings) process.stdout.write(`${f.note ? "note" : f.ok ? "ok  " : "FIX "} ${f.what}\n${f.fix ? `     → ${f.fix}\n` : ""}`);
  // Only what a person can fix here fails the command; notes (a remote server install cannot wrap) are said, not failed.
  const problems = findings.filter((f) => !f.ok).length;
  const notes = findings.filter((f) => f.note).length;
  const noted = notes > 0 ? ` (${notes} note${notes === 1 ? "" : "s"} above)` : "";
  process.stdout.write(problems === 0 ? `all good${noted}\n` : `${problems} thing${problems === 1 ? "" : "s"} to fix${noted}\n`);
  return problems === 0 ? 0 : 1;
}

function print(reports: FileReport[], dryRun: boolean, verb: string): number {
  const out = process.stdout;
  if (reports.length === 0) out.write(verb === "install" ? "no MCP client config found (see docs/install.md for where each client keeps it)\n" : "nothing to uninstall: guardwire has not changed any config\n");
  for (const r of reports) {
    out.write(`${r.client}  ${r.path}\n`);
    for (const line of r.lines) out.write(`  ${line}\n`);
    if (r.error) process.stderr.write(`guardwire: ${r.error}\n`);
    if (r.diff) out.write(r.diff);
    if (r.backup) out.write(`  backup: ${r.backup}\n`);
    if (!r.error && !r.changed) out.write("  unchanged\n");
  }
  const changed = reports.filter((r) => r.changed).length;
  const failed = reports.filter((r) => r.error).length;
  out.write(`${dryRun ? "dry run: would change" : "changed"} ${changed} file${changed === 1 ? "" : "s"}${failed ? `; ${failed} could not be read (left untouched)` : ""}\n`);
  return failed > 0 ? 1 : 0;
}
