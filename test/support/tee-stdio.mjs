// A transparent pipe in front of a stdio program, for tests that compare bytes: `node tee-stdio.mjs <record.jsonl> --
// <command> [args…]` runs the command, passes its stdin and stdout through unchanged, and appends every line in each
// direction to the record as {dir: "in" | "out", line} (the line as read, without its newline). The program is not
// touched; this only watches the wire. It exits with the program's exit code.
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";

const [record, sep, command, ...args] = process.argv.slice(2);
if (!record || sep !== "--" || !command) {
  process.stderr.write("usage: tee-stdio.mjs <record.jsonl> -- <command> [args…]\n");
  process.exit(2);
}

const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });

/** Records whole lines as they pass; what is passed on is the bytes as read, chunk by chunk. */
function watch(dir) {
  let rest = "";
  return (chunk) => {
    rest += chunk.toString("utf8");
    let nl;
    while ((nl = rest.indexOf("\n")) >= 0) {
      appendFileSync(record, JSON.stringify({ dir, line: rest.slice(0, nl) }) + "\n");
      rest = rest.slice(nl + 1);
    }
  };
}

const seeIn = watch("in");
const seeOut = watch("out");
process.stdin.on("data", (chunk) => {
  seeIn(chunk);
  child.stdin.write(chunk);
});
process.stdin.on("end", () => child.stdin.end());
child.stdout.on("data", (chunk) => {
  seeOut(chunk);
  process.stdout.write(chunk);
});
child.stdin.on("error", () => {});
process.stdout.on("error", () => {});
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 : 0)));
