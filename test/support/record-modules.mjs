// `node --import ./record-modules.mjs …` with GUARDWIRE_RECORD_MODULES=<file>: every module the process loads, one URL
// a line, appended to that file. ES modules through a load hook (it runs before the module does, so a process that
// ends abruptly has still recorded them); CommonJS modules, which Node 20 requires without the hooks, from the
// require cache when the process exits.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";

const out = process.env.GUARDWIRE_RECORD_MODULES;
if (!out) throw new Error("record-modules.mjs needs GUARDWIRE_RECORD_MODULES=<file>");
const hooks = `
import { appendFileSync } from "node:fs";
let out;
export function initialize(data) { out = data.out; }
export async function load(url, context, next) { appendFileSync(out, url + "\\n"); return next(url, context); }
`;
register("data:text/javascript," + encodeURIComponent(hooks), { parentURL: import.meta.url, data: { out } });
const require = createRequire(import.meta.url);
process.on("exit", () => {
  appendFileSync(out, Object.keys(require.cache).map((f) => pathToFileURL(f).href + "\n").join(""));
});
