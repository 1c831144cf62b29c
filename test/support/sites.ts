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
