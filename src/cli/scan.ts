import { homedir } from "node:os";
import { GuardwireError } from "../errors.js";
import { serversOfClient, serversOfFile, type ServerEntry } from "../scan/config.js";
import { readPins } from "../scan/findings.js";
import { renderReport, scanServers } from "../scan/report.js";

export interface ScanOptions {
  client?: string[];
  config?: string[];
  json: boolean;
  timeoutMs: number;
  pins: string;
}

/** `guardwire scan`: the servers of the named clients or config files, started, listed and judged. Returns the exit code. */
export async function runScan(o: ScanOptions, out: NodeJS.WritableStream): Promise<number> {
  if (!o.client?.length && !o.config?.length) throw new GuardwireError("USAGE", "name what to scan: --client <name> or --config <file>");
  const env = { home: homedir(), platform: process.platform, env: process.env, cwd: process.cwd() };
  const entries: ServerEntry[] = [...(o.client ?? []).flatMap((c) => serversOfClient(c, env)), ...(o.config ?? []).flatMap((f) => serversOfFile(f))];
  const report = await scanServers(entries, { timeoutMs: o.timeoutMs, pins: readPins(o.pins) });
  out.write(o.json ? JSON.stringify(report, null, 2) + "\n" : renderReport(report));
  return report.exitCode;
}
