#!/usr/bin/env node
import { readFileSync } from "node:fs";

// `guardwire --version` (or -V) alone is answered here, before the command line parser and its options load (a third of
// what the command costs beyond Node's own start); everything else, --help included, goes to program.ts.
const [only, ...more] = process.argv.slice(2);
if ((only === "--version" || only === "-V") && more.length === 0) {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  process.stdout.write(pkg.version + "\n");
} else {
  await import("./program.js");
}
