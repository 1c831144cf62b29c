// `node --import bench/critical-path-hook.mjs <a stdio proxy> …` with CRITICAL_PATH_OUT=<file>: the proxy's own share of
// each message's trip, timed inside it — from the `data` event that brings a message in to the `write` that sends it
// on (a request: its stdin to the server's stdin; a response: the server's stdout to its stdout), the write itself
// not included. Appends {"req": [ms…], "res": [ms…]} to the file at exit. Used by bench/critical-path.mjs; one call in
// flight at a time, so each data event is one message.
import cp from "node:child_process";
import { appendFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";

const out = process.env.CRITICAL_PATH_OUT;
if (!out) throw new Error("critical-path-hook.mjs needs CRITICAL_PATH_OUT=<file>");
const req = [];
const res = [];
let requestIn = 0;
let responseIn = 0;
process.stdin.prependListener("data", () => (requestIn = performance.now()));
const stdoutWrite = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (responseIn) res.push(performance.now() - responseIn);
  responseIn = 0;
  return stdoutWrite(chunk, ...rest);
};
const spawn = cp.spawn;
cp.spawn = function (...args) {
  const child = spawn.apply(this, args);
  const write = child.stdin.write.bind(child.stdin);
  child.stdin.write = (chunk, ...rest) => {
    if (requestIn) req.push(performance.now() - requestIn);
    requestIn = 0;
    return write(chunk, ...rest);
  };
  child.stdout.prependListener("data", () => (responseIn = performance.now()));
  return child;
};
syncBuiltinESMExports();
process.on("exit", () => appendFileSync(out, JSON.stringify({ req, res }) + "\n"));
