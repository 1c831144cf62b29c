import { readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import type { ServerResponse } from "node:http";
import { packageFile } from "../package-files.js";
import { send, fail, type AdminRoute } from "./server.js";

/** The console's files: built by `npm run build` from console/ into dist/console/, shipped in the package. */
export const CONSOLE_DIR = packageFile("dist", "console");

/** The page may load only its own files and talk only to this listener: wire data can never become script. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

/**
 * The browser console (docs/console.md): `GET /` and `/console/…`. Its files are public routes — they hold no data;
 * everything the page shows comes from the API, with the admin token the page is given.
 */
export function consoleRoutes(dir = CONSOLE_DIR): AdminRoute[] {
  let files: Map<string, { type: string; body: Buffer }> | undefined;
  const load = () => {
    files ??= new Map(
      readdirSync(dir)
        .filter((f) => TYPES[extname(f)])
        .map((f) => [f, { type: TYPES[extname(f)] as string, body: readFileSync(join(dir, f)) }]),
    );
    return files;
  };
  const serve = (res: ServerResponse, name: string) => {
    let all: Map<string, { type: string; body: Buffer }>;
    try {
      all = load();
    } catch {
      return send(res, ...fail(404, "NOT_FOUND", `the console's files are missing from ${dir} (npm run build makes them)`));
    }
    const file = all.get(name);
    if (!file) return send(res, ...fail(404, "NOT_FOUND", `no console file ${name}`));
    res.writeHead(200, {
      "content-type": file.type,
      "content-length": file.body.length,
      "cache-control": "no-cache",
      "content-security-policy": CONSOLE_CSP,
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-resource-policy": "same-origin",
    });
    res.end(file.body);
  };
  return [
    {
      method: "GET",
      pattern: /^\/$/,
      public: true,
      run: (_m, { res }) => {
        res.writeHead(302, { location: "/console/", "content-length": 0 });
        res.end();
      },
    },
    { method: "GET", pattern: /^\/console\/$/, doc: "GET /console/", public: true, run: (_m, { res }) => serve(res, "index.html") },
    { method: "GET", pattern: /^\/console\/([\w-]+\.(?:js|css|svg|html))$/, public: true, run: (m, { res }) => serve(res, m[1] as string) },
  ];
}
