import type { PinStore } from "../guardian/detectors/pins.js";
import type { ServerEntry } from "./config.js";
import { findingsOf, visible, withoutSecrets, type Finding, type PinStatus, type Severity } from "./findings.js";
import { listServer } from "./run.js";

/** One server's row: what it offers, what the detectors found, how its tools compare with their pins. */
export interface ServerReport {
  name: string;
  /** The command line or URL that was started or reached. */
  target: string;
  status: "scanned" | "failed";
  error: string | null;
  transport: string | null;
  serverInfo: { name: string; version: string } | null;
  tools: { name: string; pin: PinStatus }[];
  /** The server name in the pins file whose pins the tools were compared with (null when not scanned). */
  pinName: string | null;
  prompts: string[];
  resources: string[];
  resourceTemplates: string[];
  /** Tools pinned for this server that it no longer lists. */
  pinnedMissing: string[];
  findings: Finding[];
}

export interface ScanReport {
  version: 1;
  servers: ServerReport[];
  summary: { servers: number; scanned: number; failed: number; findings: number; high: number; medium: number };
  exitCode: number;
}

/** Exit codes: 0 nothing found, 1 findings, 3 no findings but a server could not be scanned (2 stays usage errors). */
export const EXIT = { clean: 0, findings: 1, unscanned: 3 } as const;

/** Scans every server, four at a time, each within `timeoutMs`; the order of the report is the order of the config. */
export async function scanServers(entries: ServerEntry[], o: { timeoutMs: number; pins: PinStore & { tools(server: string): string[] } }): Promise<ScanReport> {
  const servers: ServerReport[] = new Array<ServerReport>(entries.length);
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const i = next++;
      servers[i] = await scanOne(entries[i] as ServerEntry, o);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, entries.length) }, worker));
  const all = servers.flatMap((s) => s.findings);
  const failed = servers.filter((s) => s.status === "failed").length;
  const count = (sev: Severity) => all.filter((f) => f.severity === sev).length;
  return {
    version: 1,
    servers,
    summary: { servers: servers.length, scanned: servers.length - failed, failed, findings: all.length, high: count("high"), medium: count("medium") },
    exitCode: all.length > 0 ? EXIT.findings : failed > 0 ? EXIT.unscanned : EXIT.clean,
  };
}

async function scanOne(entry: ServerEntry, o: { timeoutMs: number; pins: PinStore & { tools(server: string): string[] } }): Promise<ServerReport> {
  const target = entry.kind === "stdio" ? [entry.command, ...entry.args].join(" ") : entry.kind === "http" ? entry.url : "";
  const base: ServerReport = {
    name: entry.name,
    target: visible(target),
    status: "failed",
    error: null,
    transport: null,
    serverInfo: null,
    tools: [],
    pinName: null,
    prompts: [],
    resources: [],
    resourceTemplates: [],
    pinnedMissing: [],
    findings: [],
  };
  const listed = await listServer(entry, o.timeoutMs);
  if (!listed.ok) return { ...base, error: visible(withoutSecrets(listed.error)) };
  const { listing } = listed;
  const { findings, pins, pinnedFor } = findingsOf(listing, entry.pinName, o.pins);
  const label = (x: Record<string, unknown>) => visible(String(x.name ?? x.uri ?? x.uriTemplate ?? ""));
  return {
    ...base,
    status: "scanned",
    transport: listing.transport,
    serverInfo: listing.serverInfo && { name: visible(listing.serverInfo.name), version: visible(listing.serverInfo.version) },
    tools: Object.entries(pins).map(([name, pin]) => ({ name: visible(name), pin })),
    pinName: visible(pinnedFor),
    prompts: listing.prompts.map(label),
    resources: listing.resources.map(label),
    resourceTemplates: listing.resourceTemplates.map(label),
    pinnedMissing: o.pins.tools(pinnedFor).filter((t) => !Object.hasOwn(pins, t)).map(visible),
    findings,
  };
}

/** The report as a person reads it: a block per server, then one summary line. */
export function renderReport(r: ScanReport): string {
  const out: string[] = [];
  for (const s of r.servers) {
    out.push(`${s.name}  (${s.target})`);
    if (s.status === "failed") {
      out.push(`  NOT SCANNED: ${s.error}`, "");
      continue;
    }
    const info = s.serverInfo ? `${s.serverInfo.name} ${s.serverInfo.version}`.trim() + ", " : "";
    out.push(`  ${info}${s.transport}: ${n(s.tools.length, "tool")}, ${n(s.prompts.length, "prompt")}, ${n(s.resources.length, "resource")}, ${n(s.resourceTemplates.length, "resource template")}`);
    if (s.tools.length > 0) {
      out.push(...table(["TOOL", `PIN (${s.pinName})`], s.tools.map((t) => [t.name, t.pin === "same" ? "pinned, same" : t.pin === "changed" ? "CHANGED since pinned" : "new (not pinned)"])));
    }
    if (s.pinnedMissing.length > 0) out.push(`  pinned but no longer listed: ${s.pinnedMissing.join(", ")}`);
    if (s.findings.length === 0) out.push("  no findings");
    else {
      out.push(`  ${n(s.findings.length, "finding")}:`);
      out.push(...table(["SEVERITY", "TYPE", "WHERE", "EXCERPT"], s.findings.map((f) => [f.severity.toUpperCase(), f.type, f.kind === "instructions" ? "instructions" : `${f.kind} ${f.name}: ${f.field}`, f.excerpt])));
    }
    out.push("");
  }
  const m = r.summary;
  out.push(
    `${n(m.servers, "server")}: ${m.scanned} scanned, ${m.failed} not scanned; ${n(m.findings, "finding")}` +
      (m.findings > 0 ? ` (${m.high} high, ${m.medium} medium)` : ""),
  );
  return out.join("\n") + "\n";
}

const n = (k: number, what: string) => `${k} ${what}${k === 1 ? "" : "s"}`;

function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.min(48, Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length))));
  const line = (cells: string[]) => "  " + cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number))).join("  ");
  return [line(head), ...rows.map(line)];
}
