import { existsSync, readFileSync } from "node:fs";
import { createTwoFilesPatch } from "diff";
import { findClientConfigs, listServers, parseDocument, type ClientConfig, type ClientName, type ServerEntry, type Where } from "./clients.js";
import { ConfigEditError, ConfigSyntaxError } from "./config-error.js";
import { editJsonc, valueAt } from "./jsonc-edit.js";
import { readManifest, writeManifest, type InstalledEntry, type InstalledFile, type Manifest } from "./manifest.js";
import { atomicWrite } from "../fs-atomic.js";
import { backup, sha256 } from "./safe-write.js";
import { editToml } from "./toml-edit.js";
import { launchChanges, logFile, logOf, unwrap, wrapLaunch, type Launch, type WrapSettings } from "./wrap-entry.js";

/*
 * install: every stdio server in every client config found becomes `guardwire wrap … -- <its command>`; uninstall
 * puts back what install changed. Both read each file once, change it by key-path edits only, back it up, and
 * replace it atomically; a file that does not parse is reported and left alone. docs/install.md.
 */

export interface State {
  /** `~/.guardwire/installed.json`: what install changed. */
  manifest: string;
  /** Where backups go (`~/.guardwire/backups`). */
  backups: string;
  now: () => Date;
  dryRun: boolean;
}

/** What happened to one file. `lines` are for people; `diff` is set on a dry run that would change the file. */
export interface FileReport {
  path: string;
  client: ClientName;
  changed: boolean;
  error?: string;
  lines: string[];
  diff?: string;
  backup?: string;
}

export function install(where: Where, settings: WrapSettings, state: State): FileReport[] {
  const manifest = readManifest(state.manifest);
  const configs = findClientConfigs(where);
  // Log files already in use, by entries guardwire wrapped before: a new server never shares one.
  const logs = new Set(Object.values(manifest.files).flatMap((f) => f.entries.map((e) => logOf(e.wrapped) ?? "")));
  const reports = byFile(configs).map(([path, group]) => installFile(path, group, { ...settings, logs }, state, manifest));
  if (!state.dryRun && reports.some((r) => r.changed)) writeManifest(state.manifest, manifest);
  return reports;
}

export function uninstall(clients: readonly ClientName[] | undefined, state: State): FileReport[] {
  const manifest = readManifest(state.manifest);
  const reports = Object.entries(manifest.files)
    .filter(([, f]) => !clients || clients.includes(f.client))
    .map(([path, f]) => uninstallFile(path, f, state, manifest));
  if (!state.dryRun && reports.length > 0) writeManifest(state.manifest, manifest);
  return reports;
}

type Settings = WrapSettings & { logs: Set<string> };

function installFile(path: string, configs: ClientConfig[], settings: Settings, state: State, manifest: Manifest): FileReport {
  const first = configs[0] as ClientConfig;
  const report: FileReport = { path, client: first.client, changed: false, lines: [] };
  const before = readFileSync(path, "utf8");
  const entries: InstalledEntry[] = [];
  try {
    for (const config of configs) {
      const where = config.serversPath[0] === "projects" ? ` (project ${config.project})` : "";
      for (const server of listServers(config, before)) {
        const line = plan(config, server, settings, entries);
        if (line) report.lines.push(line + where);
      }
    }
  } catch (e) {
    return fail(report, e);
  }
  if (entries.length === 0) return report;
  let after: string;
  try {
    after = applyChanges(first.format, path, before, entries.flatMap((e) => launchChanges(e.serversPath, e.name, e.wrapped)));
  } catch (e) {
    return fail(report, e);
  }
  return commit(report, before, after, state, () => {
    const old = manifest.files[path];
    manifest.files[path] = {
      client: first.client,
      format: first.format,
      // A byte-for-byte restore stays right only if nobody changed the file since guardwire last wrote it.
      restore: old ? (old.installedSha256 === sha256(before) ? old.restore : undefined) : { backup: report.backup as string, sha256: sha256(before) },
      installedSha256: sha256(after),
      backups: [...(old?.backups ?? []), report.backup as string],
      entries: [...(old?.entries ?? []), ...entries],
    };
  });
}

/** Decides about one server: wrap it (pushed onto `entries`), or say why not. */
function plan(config: ClientConfig, server: ServerEntry, settings: Settings, entries: InstalledEntry[]): string | undefined {
  if (server.kind === "remote") {
    return `skipped remote server "${server.name}" (${server.url}): NOT guarded; install wraps stdio servers only; to guard it, add it as a route of \`guardwire serve\` and point the client at the route (docs/serve.md)`;
  }
  if (server.kind === "unknown") return `skipped "${server.name}": neither a command nor a url; left as it is`;
  const launch: Launch = { command: server.command as string, ...(server.raw.args !== undefined ? { args: server.args ?? [] } : {}) };
  if (unwrap(launch, settings.guardwire)) return `already guarded: "${server.name}"`;
  if (server.raw.args !== undefined && !server.args) return `skipped "${server.name}": its args are not a list of strings; left as it is`;
  const log = logFile(config, server.name, settings.logDir, settings.logs);
  settings.logs.add(log);
  entries.push({ serversPath: config.serversPath, name: server.name, original: launch, wrapped: wrapLaunch(server, log, settings) });
  return `wrapped "${server.name}": ${[launch.command, ...(launch.args ?? [])].join(" ")}`;
}

function uninstallFile(path: string, f: InstalledFile, state: State, manifest: Manifest): FileReport {
  const report: FileReport = { path, client: f.client, changed: false, lines: [] };
  if (!existsSync(path)) {
    report.lines.push("the file is gone; nothing to restore");
    if (!state.dryRun) delete manifest.files[path];
    return report;
  }
  const before = readFileSync(path, "utf8");
  const done = () => void delete manifest.files[path];
  const original = f.restore && sha256(before) === f.installedSha256 && existsSync(f.restore.backup) ? readFileSync(f.restore.backup) : undefined;
  if (original && f.restore && sha256(original) === f.restore.sha256) {
    report.lines.push(`restored byte for byte from ${f.restore.backup}`);
    return commit(report, before, original.toString("utf8"), state, done);
  }
  const changes: { path: string[]; value: unknown }[] = [];
  try {
    const doc = parseDocument({ path, format: f.format }, before);
    for (const e of f.entries) {
      const now = valueAt(doc, [...e.serversPath, e.name]) as Record<string, unknown> | undefined;
      const launch: Launch | undefined = typeof now?.command === "string" ? { command: now.command, ...(Array.isArray(now.args) ? { args: now.args as string[] } : {}) } : undefined;
      const inner = launch && unwrap(launch);
      if (!launch || !inner) {
        report.lines.push(`left "${e.name}" as it is: no longer wrapped by guardwire`);
        continue;
      }
      // Unchanged since install: exactly the original. Edited since: the command it now wraps, without guardwire.
      const back = sameLaunch(launch, e.wrapped) ? e.original : { command: inner.command, ...(inner.args?.length || e.original.args ? { args: inner.args ?? [] } : {}) };
      changes.push(...launchChanges(e.serversPath, e.name, back));
      report.lines.push(`unwrapped "${e.name}"${sameLaunch(launch, e.wrapped) ? "" : " (edited since install: the command it now wraps is kept)"}; the file's other changes since install are kept`);
    }
    return commit(report, before, applyChanges(f.format, path, before, changes), state, done);
  } catch (e) {
    return fail(report, e);
  }
}

/** Backs up and writes `after` (or, on a dry run, only diffs it), then records the change. */
function commit(report: FileReport, before: string, after: string, state: State, record: () => void): FileReport {
  if (after === before) {
    if (!state.dryRun) record();
    return report;
  }
  report.changed = true;
  if (state.dryRun) {
    report.diff = createTwoFilesPatch(report.path, report.path, before, after, "now", "after");
    return report;
  }
  // A client may write its own config meanwhile (Claude Code rewrites ~/.claude.json often): never write over that.
  if (readFileSync(report.path, "utf8") !== before) {
    report.changed = false;
    report.error = `${report.path} changed while guardwire was working on it (is its client running?); left as it is: run the command again`;
    return report;
  }
  report.backup = backup(report.path, state.backups, state.now());
  atomicWrite(report.path, after);
  record();
  return report;
}

function applyChanges(format: ClientConfig["format"], path: string, text: string, changes: { path: string[]; value: unknown }[]): string {
  return format === "toml" ? editToml(path, text, changes) : editJsonc(text, changes);
}

function fail(report: FileReport, e: unknown): FileReport {
  if (e instanceof ConfigSyntaxError) report.error = `${e.message}; the file is left untouched`;
  else if (e instanceof ConfigEditError) report.error = e.message;
  else throw e;
  report.changed = false;
  report.diff = undefined;
  return report;
}

function sameLaunch(a: Launch, b: Launch): boolean {
  return a.command === b.command && JSON.stringify(a.args) === JSON.stringify(b.args);
}

function byFile(configs: ClientConfig[]): [string, ClientConfig[]][] {
  const files = new Map<string, ClientConfig[]>();
  for (const c of configs) files.set(c.path, [...(files.get(c.path) ?? []), c]);
  return [...files];
}
