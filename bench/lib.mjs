// Helpers shared by the bench scripts: child processes, ports, CPU accounting, arguments.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** A free loopback port (closed again before it is returned). */
export function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Starts `node <args>`, kept in `children`, and resolves once its output matches `ready` (rejects if it exits first). */
export function startNode(children, args, env, ready) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  return new Promise((resolve, reject) => {
    const on = (b) => {
      out += b.toString();
      const m = ready.exec(out);
      if (m) resolve({ child, match: m });
    };
    child.stdout.on("data", on);
    child.stderr.on("data", on);
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}:\n${out}`)));
  });
}

/**
 * Ends the run if it is still going after `seconds` (every loop is bounded; this is for a hang). However the run ends
 * (a hang, an error, done), the `children` it started go with it.
 */
export function watchdog(name, seconds, children = []) {
  process.on("exit", () => {
    for (const c of children) c.kill("SIGKILL");
  });
  setTimeout(() => {
    console.error(`${name}: still running after ${seconds} s; giving up`);
    process.exit(2);
  }, seconds * 1000).unref();
}

let clkTck = 100;
try {
  clkTck = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
} catch {
  // Linux's usual value stands.
}

/** CPU seconds (user+system) a process has used so far, from /proc; null without a pid or /proc. */
export function cpuOf(pid) {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / clkTck;
  } catch {
    return null;
  }
}

/** The number after `--name` on the command line, or `dflt`. */
export function numberArg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
}

/** The judgement bench's 942 B `tools/call` (a shell command, paths and a paragraph of text), with id `i`. */
export function judgementCall(i) {
  return {
    jsonrpc: "2.0",
    id: i,
    method: "tools/call",
    params: {
      name: "run_command",
      arguments: {
        command: `cd /home/dev/project && npm run build && git status --short # ${i}`,
        cwd: "/home/dev/project",
        path: "/home/dev/project/src/components/nested/module/implementation.ts",
        text: "Refactor the session module so that request ids are correlated in both directions; ".repeat(8),
      },
    },
  };
}
