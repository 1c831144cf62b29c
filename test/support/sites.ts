import { compileDetector, MessageScan, type CompiledDetector, type DetectorSpec } from "../../src/guardian/detectors/index.js";
import type { StringSite } from "../../src/guardian/detectors/scan.js";

/** The sites of a tool call's arguments, as the scanner lists them. */
export function sitesOf(args: unknown): StringSite[] {
  const out: StringSite[] = [];
  const walk = (x: unknown, p: (string | number)[]) => {
    if (typeof x === "string") out.push({ path: p, value: x });
    else if (Array.isArray(x)) x.forEach((y, i) => walk(y, [...p, i]));
    else if (x !== null && typeof x === "object") for (const [k, y] of Object.entries(x)) walk(y, [...p, k]);
  };
  walk(args, ["params", "arguments"]);
  return out;
}

/** A detector compiled from its spec; a spec it refuses throws. */
export function detector(spec: DetectorSpec): CompiledDetector {
  const d = compileDetector(spec);
  if (typeof d === "string") throw new Error(d);
  return d;
}

/** What a detector (exfiltration unless said) finds in a tool call: each finding's detail, or its type. */
export function callFindings(tool: string, args: Record<string, unknown>, spec: DetectorSpec = "exfiltration"): string[] {
  return new MessageScan({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: args } }, "srv", null).run(detector(spec)).map((x) => x.detail ?? x.type);
}

/** The finding types a detector gives on an A2A agent card with this description and these skills. */
export function cardTypes(d: CompiledDetector, description: string, skills: unknown[] = []): string[] {
  return d.run(new MessageScan({ jsonrpc: "2.0", id: 1, result: { name: "a", description, url: "http://127.0.0.1:9/", protocolVersion: "0.3.0", version: "1", capabilities: {}, skills } }, "t", null)).map((x) => x.type);
}

/** The finding types a detector gives on a one-tool `tools/list` result with this description and input-schema properties. */
export function toolTypes(d: CompiledDetector, description: string, properties: Record<string, unknown> = { id: { type: "string" } }): string[] {
  return d.run(new MessageScan({ jsonrpc: "2.0", id: 1, result: { tools: [{ name: "t", description, inputSchema: { type: "object", properties } }] } }, "t", null)).map((x) => x.type);
}
