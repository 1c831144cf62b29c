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
