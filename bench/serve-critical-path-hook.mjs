// `node --import bench/serve-critical-path-hook.mjs <an HTTP proxy> …` with HTTP_PATH_OUT=<file>: the proxy's own share
// of each message's trip, timed inside it. Sockets a server accepted are the agent's ("down"), the others go to the
// server ("up"). A request: from the last piece of its body read (or its end) to the first write to an upstream socket
// after it; a response: from the last read of an upstream socket to the first write to the agent's socket after it.
// One call in flight at a time. SIGUSR2 writes {"req": [ms…], "res": [ms…], "reqMarks": […], "resMarks": […]} to the
// file (the process goes on). Used by bench/serve-critical-path.mjs.
//
// Marks: `globalThis.__cp?.("name")` put by hand into a copy of dist/ (never committed) records when each message
// passes that point, in µs from its read; the bench prints their medians in order (how the serve table in
// docs/benchmarks.md was made).
import http from "node:http";
import net from "node:net";
import { writeFileSync } from "node:fs";

const out = process.env.HTTP_PATH_OUT;
if (!out) throw new Error("serve-critical-path-hook.mjs needs HTTP_PATH_OUT=<file>");
const req = [];
const res = [];
const reqMarks = [];
const resMarks = [];
let downIn = 0;
let upIn = 0;
let marks = [];
globalThis.__cp = (name) => marks.push(name, performance.now());

/** The marks made since the message was read, as µs from its read. */
function close(list, from, t) {
  const m = {};
  for (let i = 0; i < marks.length; i += 2) if (marks[i + 1] >= from) m[marks[i]] ??= Math.round((marks[i + 1] - from) * 1000);
  m.out = Math.round((t - from) * 1000);
  list.push(m);
  marks = [];
}

const push = net.Socket.prototype.push;
net.Socket.prototype.push = function (chunk, enc) {
  if (chunk !== null) {
    if (this.server) downIn = performance.now();
    else upIn = performance.now();
  }
  return push.call(this, chunk, enc);
};
// A server's sockets feed its HTTP parser directly: a request's body arrives as the request's own data.
const requestPush = http.IncomingMessage.prototype.push;
http.IncomingMessage.prototype.push = function (chunk, enc) {
  downIn = performance.now();
  return requestPush.call(this, chunk, enc);
};
const writeGeneric = net.Socket.prototype._writeGeneric;
net.Socket.prototype._writeGeneric = function (...args) {
  const t = performance.now();
  if (this.server) {
    if (upIn) {
      res.push(t - upIn);
      close(resMarks, upIn, t);
      upIn = 0;
    }
  } else if (downIn) {
    req.push(t - downIn);
    close(reqMarks, downIn, t);
    downIn = 0;
  }
  return writeGeneric.apply(this, args);
};
process.on("SIGUSR2", () => writeFileSync(out, JSON.stringify({ req, res, reqMarks, resMarks })));
