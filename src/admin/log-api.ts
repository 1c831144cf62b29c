import { existsSync, statSync } from "node:fs";
import { readHead } from "../decision-log/head.js";
import { verifyFiles } from "../decision-log/verify.js";
import { fail, type AdminRoute } from "./server.js";

/** verify reads each file whole, inside the running guardwire: past this, it is a job for `guardwire verify`. */
export const MAX_VERIFY_BYTES = 256 * 1024 * 1024;

/** The decision log the admin listener reports on: its file (null when it goes to stderr) and a way to flush it. */
export interface LogView {
  file: string | null;
  flush(): void;
}

/** `GET /api/log/head` (the chain head beside the log) and `POST /api/log/verify` (the whole chain, rotated files first). */
export function logRoutes(log: LogView): AdminRoute[] {
  let running = false;
  return [
    {
      method: "GET",
      pattern: /^\/api\/log\/head$/,
      doc: "GET /api/log/head",
      run: () => {
        if (!log.file) return [200, { file: null, head: null, bytes: null }];
        return [200, { file: log.file, head: readHead(log.file) ?? null, bytes: existsSync(log.file) ? statSync(log.file).size : 0, rotated: rotatedLogs(log.file).length }];
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/log\/verify$/,
      doc: "POST /api/log/verify",
      run: async (_m, r) => {
        await r.body();
        if (!log.file) return fail(409, "CONFLICT", "the decision log goes to stderr: there is no file to verify");
        if (running) return fail(409, "CONFLICT", "a verify run is already going");
        running = true;
        try {
          log.flush();
          const files = [...rotatedLogs(log.file), log.file];
          const bytes = files.reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
          if (bytes > MAX_VERIFY_BYTES) return fail(413, "TOO_LARGE", `the log is ${bytes} bytes; verify it with guardwire verify ${files.join(" ")} (or rotate it: --log-max-bytes)`);
          const started = Date.now();
          // partial: rotated files beyond the kept ones are gone, so the oldest kept file may start mid-chain.
          const result = await verifyFiles(files, { partial: true, headFirst: true });
          return [200, { files, result, ms: Date.now() - started, at: new Date().toISOString() }];
        } finally {
          running = false;
        }
      },
    },
  ];
}

/** `log.N` … `log.1`, oldest first, as the writer rotates them. */
export function rotatedLogs(file: string): string[] {
  const found: string[] = [];
  for (let i = 1; existsSync(`${file}.${i}`); i++) found.unshift(`${file}.${i}`);
  return found;
}
