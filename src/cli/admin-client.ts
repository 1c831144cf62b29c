import { readFileSync } from "node:fs";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { homedir, userInfo } from "node:os";
import { join } from "node:path";
import { GuardwireError } from "../errors.js";

/*
 * Node's own http client, not undici: `guardwire sessions` and `approvals` are short commands run by hand or from an
 * approval script under a timeout, and loading undici took longer than the call itself (docs/benchmarks.md).
 */

/** Where a running guardwire leaves its admin URL and token for `guardwire approvals` (mode 0600). */
export function adminFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.GUARDWIRE_ADMIN_FILE ?? join(homedir(), ".guardwire", "admin.json");
}

export interface AdminClientOptions {
  admin?: string;
  token?: string;
}

/** Calls a running guardwire's admin API; every failure is one line naming what to do (exit 2). */
export type AdminCall = <T>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown) => Promise<T>;

/**
 * The admin API of a running guardwire: --admin/--token, else GUARDWIRE_ADMIN_URL/GUARDWIRE_ADMIN_TOKEN, else the admin
 * file it wrote; `http(s)://…` or `unix:/path` (its socket: the token is then optional). Used by `guardwire approvals`
 * and `guardwire sessions`.
 */
export function adminClient(o: AdminClientOptions): AdminCall {
  const { url, token } = locate(o);
  const socketPath = url.startsWith("unix:") ? url.slice("unix:".length) : undefined;
  const origin = socketPath ? "http://localhost" : url;
  return async <T>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T> => {
    let res: { status: number; text: string };
    try {
      res = await send(new URL(path, origin), method, socketPath, { ...(token ? { authorization: `Bearer ${token}` } : {}), "content-type": "application/json" }, body === undefined ? undefined : JSON.stringify(body));
    } catch (e) {
      throw new GuardwireError("USAGE", `cannot reach the admin API at ${url}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message} (is guardwire running with --admin?)`);
    }
    let data: { error?: { code: string; message: string } } & Record<string, unknown> = {};
    try {
      data = JSON.parse(res.text) as typeof data;
    } catch {
      // not JSON: reported by status below
    }
    if (res.status >= 300) throw new GuardwireError("USAGE", `${data.error?.message ?? `HTTP ${res.status}`}${data.error?.code ? ` (${data.error.code})` : ""}`);
    return data as T;
  };
}

/** One request, its whole answer as text. */
function send(url: URL, method: string, socketPath: string | undefined, headers: Record<string, string>, body: string | undefined): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, { method, headers, socketPath }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

export function locate(o: AdminClientOptions): { url: string; token: string | undefined } {
  let url = o.admin ?? process.env.GUARDWIRE_ADMIN_URL;
  let token = o.token ?? process.env.GUARDWIRE_ADMIN_TOKEN;
  const file = adminFile();
  if (!url || !token) {
    try {
      const saved = JSON.parse(readFileSync(file, "utf8")) as { url?: string; token?: string | null };
      // The saved token belongs to the saved URL only.
      if (!url || url === saved.url) {
        url ??= saved.url;
        token ??= saved.token ?? undefined;
      }
    } catch {
      // reported below
    }
  }
  if (!url) throw new GuardwireError("USAGE", `no admin API found: give --admin URL (or unix:/path) and --token, or run guardwire with --admin (it writes ${file})`);
  if (url.startsWith("unix:")) return { url, token };
  if (!token) throw new GuardwireError("USAGE", `no token for the admin API at ${url}: give --token or GUARDWIRE_ADMIN_TOKEN`);
  return { url: /^https?:\/\//.test(url) ? url : `http://${url}`, token };
}

/** Who is acting, for the log line of an approval or a session action (the login name; unknown in some containers). */
export function userName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}
