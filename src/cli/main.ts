#!/usr/bin/env node
import { readFileSync } from "node:fs";

// `guardwire --version` (or -V) alone is answered here, before the command line parser and its options load (a third of
// what the command costs beyond Node's own start); everything else, --help included, goes to program.ts.
const [only, ...more] = process.argv.slice(2);
if ((only === "--version" || only === "-V") && more.length === 0) {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  process.stdout.write(pkg.version + "\n");
} else {
  // Regular expressions are compiled to machine code on first use, once, instead of to bytecode first and to machine code
  // on their second use: the detectors' large expressions made the first judgement of a process (a server's
  // initialize result, on wrap's start-up path) take 220 ms instead of 85 ms; later judgements are unchanged
  // (docs/benchmarks.md, start-up).
  (await import("node:v8")).setFlagsFromString("--no-regexp-tier-up");
  await import("./program.js");
}
