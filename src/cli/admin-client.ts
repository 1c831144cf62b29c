import { readFileSync } from "node:fs";
import { userInfo } from "node:os";
import { Agent, request, type Dispatcher } from "undici";
import { GuardwireError } from "../errors.js";
import { adminFile } from "./admin.js";

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
  const dispatcher = socketPath ? new Agent({ connect: { socketPath } }) : undefined;
  const origin = socketPath ? "http://localhost" : url;
  return async <T>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T> => {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(new URL(path, origin), {
        method,
        dispatcher,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      throw new GuardwireError("USAGE", `cannot reach the admin API at ${url}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message} (is guardwire running with --admin?)`);
    }
    const data = (await res.body.json().catch(() => ({}))) as { error?: { code: string; message: string } } & Record<string, unknown>;
    if (res.statusCode >= 300) throw new GuardwireError("USAGE", `${data.error?.message ?? `HTTP ${res.statusCode}`}${data.error?.code ? ` (${data.error.code})` : ""}`);
    return data as T;
  };
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
