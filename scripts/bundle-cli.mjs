// The command line as one bundle (npm run build, after tsc): dist/cli/main.js and its chunks in dist/cli/chunks/,
// one file per group of modules loaded together, so `wrap` starts without resolving and reading ~300 files one by one
// (docs/benchmarks.md, start-up). Each `await import()` of a command stays a chunk loaded when it runs. The bundle is
// built from tsc's output (dist/), so it holds exactly what tsc compiled; what each output holds is kept in
// dist/cli/chunks/inputs.json (test/cli/lazy-imports.test.ts reads it).
import { build } from "esbuild";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist", "cli");
const MARK = "// guardwire: the command line, bundled (scripts/bundle-cli.mjs)";
const entry = join(CLI, "main.js");
if (readFileSync(entry, "utf8").includes(MARK)) throw new Error(`${entry} is already a bundle: run npm run build (tsc first)`);

/*
 * The packages `wrap` needs before it can judge a first message go into the bundle (ES modules and small CommonJS
 * ones, read file by file otherwise: zod alone is 95 files). Every other package stays in node_modules, loaded as
 * before when a command imports it: the CommonJS ones keep their own require(), __dirname and lazily required parts
 * (undici, ioredis, prom-client's OpenTelemetry), and the grammar's WebAssembly stays beside web-tree-sitter.
 */
const BUNDLED = new Set(["zod", "jsonpath-rfc9535", "@marcbachmann/cel-js", "re2js", "unhomoglyph", "commander", "htmlparser2", "entities", "domhandler", "domutils", "dom-serializer", "domelementtype"]);
const packageOf = (spec) => spec.split("/").slice(0, spec.startsWith("@") ? 2 : 1).join("/");
const onlyStartPackages = {
  name: "only-start-packages",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (a) => (a.path.startsWith("node:") || BUNDLED.has(packageOf(a.path)) ? undefined : { path: a.path, external: true }));
  },
};

const out = join(CLI, ".bundle");
rmSync(out, { recursive: true, force: true });
const result = await build({
  absWorkingDir: ROOT,
  entryPoints: { main: entry },
  outdir: out,
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  plugins: [onlyStartPackages],
  // CommonJS packages inside the bundle call require() for Node's modules.
  banner: { js: `${MARK}\nimport { createRequire as __guardwireRequire } from "node:module";\nconst require = __guardwireRequire(import.meta.url);` },
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
});

const inputs = {};
for (const [file, o] of Object.entries(result.metafile.outputs)) {
  const at = relative(out, join(ROOT, file));
  inputs[join("dist", "cli", at)] = Object.keys(o.inputs);
}
rmSync(join(CLI, "chunks"), { recursive: true, force: true });
renameSync(join(out, "chunks"), join(CLI, "chunks"));
renameSync(join(out, "main.js"), entry);
rmSync(out, { recursive: true, force: true });
writeFileSync(join(CLI, "chunks", "inputs.json"), JSON.stringify(inputs, null, 1) + "\n");
