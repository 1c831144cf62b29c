// A policy-free NDJSON relay: the floor for any proxy that sits in its own process between a stdio client and server.
// It splits lines and parses each (as any JSON-RPC-aware proxy must), nothing else. Used only as a benchmark reference.
import { spawn } from "node:child_process";

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const relay = (src, dst) => {
  let buf = "";
  src.setEncoding("utf8");
  src.on("data", (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      JSON.parse(line);
      dst.write(line + "\n");
    }
  });
};
relay(process.stdin, child.stdin);
relay(child.stdout, process.stdout);
process.stdin.on("end", () => child.stdin.end());
child.on("exit", (code) => process.exit(code ?? 0));
