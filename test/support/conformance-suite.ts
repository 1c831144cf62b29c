import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT, tempDir } from "../helpers.js";

const SUITE = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
export const CONFORMANCE_SERVER = join(ROOT, "test", "fixtures", "servers", "conformance-everything.mjs");

export interface ScenarioResult {
  passed: boolean;
  checks: number;
  failures: string[];
}

/**
 * Runs the official MCP conformance suite's server scenarios (active and pending) against `url` and reads each
 * scenario's checks.json: a scenario passes when none of its checks failed.
 */
export async function runConformance(url: string): Promise<Map<string, ScenarioResult>> {
  const out = tempDir("guardwire-conformance-");
  for (const suite of ["active", "pending"]) {
    // The suite exits non-zero when a scenario fails; the results on disk are what counts.
    await promisify(execFile)(process.execPath, [SUITE, "server", "--url", url, "--suite", suite, "-o", join(out, suite)], { cwd: out, timeout: 240_000 }).catch((e: { stdout?: string }) => e);
  }
  const results = new Map<string, ScenarioResult>();
  for (const suite of ["active", "pending"]) {
    for (const dir of readdirSync(join(out, suite))) {
      const name = dir.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
      const checks = JSON.parse(readFileSync(join(out, suite, dir, "checks.json"), "utf8")) as { name: string; status: string; errorMessage?: string }[];
      const failures = checks.filter((c) => c.status === "FAILURE").map((c) => `${c.name}: ${c.errorMessage ?? ""}`);
      results.set(name, { passed: failures.length === 0, checks: checks.filter((c) => c.status === "SUCCESS").length, failures });
    }
  }
  return results;
}
