// The shipped packs (rules/*.yaml), parsed and validated once at build time into dist/packs/<name>.json (npm run
// build), so a command using them starts without the YAML parser and the schema. Each keeps its text's digest: a pack
// edited after the build is parsed from its text as any other file (src/guardian/rules/load.ts, builtParse).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PACK_PARSES_DIR, PACKS_DIR, packParse } from "../dist/guardian/rules/load.js";

mkdirSync(PACK_PARSES_DIR, { recursive: true });
for (const f of readdirSync(PACKS_DIR).filter((f) => f.endsWith(".yaml") && !f.endsWith(".test.yaml"))) {
  const file = join(PACKS_DIR, f);
  const kept = packParse(file, readFileSync(file, "utf8"));
  if (!kept) throw new Error(`${file} has problems: run guardwire check ${file}`);
  writeFileSync(join(PACK_PARSES_DIR, f.replace(/\.yaml$/, ".json")), JSON.stringify(kept) + "\n");
}
