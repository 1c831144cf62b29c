import { readFileSync } from "node:fs";
import { parse } from "yaml";

/** Every string value in the named files of the labelled corpus (test/fixtures/corpus/<name>.test.yaml). */
export function corpusStrings(files: string[] = ["attacks", "benign"]): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  for (const f of files) walk(parse(readFileSync(`test/fixtures/corpus/${f}.test.yaml`, "utf8")));
  return out;
}
