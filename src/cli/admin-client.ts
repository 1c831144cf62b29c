import { readFileSync } from "node:fs";
import { GuardwireError } from "../errors.js";
import { adminFile } from "./admin.js";

export interface AdminClientOptions {
  admin?: string;
  token?: string;
}

/** Calls a running guardwire's admin API; every failure is one line naming what to do (exit 2). */
export type AdminCall = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/**
 * The admin API of a running guardwire: --admin/--token, else GUARDWIRE_ADMIN_URL/GUARDWIRE_ADMIN_TOKEN, else the admin
 * file it wrote. Used by `guardwire approvals` and `guardwire sessions`.
 */
export function adminClient(o: AdminClientOptions): AdminCall {
  const { url, token } = locate(o);
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(new URL(path, url), {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      throw new GuardwireError("USAGE", `cannot reach the admin API at ${url}: ${((e as Error).cause as Error | undefined)?.message ?? (e as Error).message} (is guardwire running with --admin?)`);
    }
    const data = (await res.json().catch(() => ({}))) as { error?: { code: string; message: string } } & Record<string, unknown>;
    if (!res.ok) throw new GuardwireError("USAGE", `${data.error?.message ?? `HTTP ${res.status}`}${data.error?.code ? ` (${data.error.code})` : ""}`);
    return data as T;
  };
}

export function locate(o: AdminClientOptions): { url: string; token: string } {
  let url = o.admin ?? process.env.GUARDWIRE_ADMIN_URL;
  let token = o.token ?? process.env.GUARDWIRE_ADMIN_TOKEN;
  if (!url || !token) {
    const file = adminFile();
    try {
      const saved = JSON.parse(readFileSync(file, "utf8")) as { url?: string; token?: string };
      url ??= saved.url;
      token ??= saved.token;
    } catch {
      // reported below
    }
    if (!url || !token) throw new GuardwireError("USAGE", `no admin API found: give --admin URL and --token, or run guardwire with --admin (it writes ${file})`);
  }
  return { url: /^https?:\/\//.test(url) ? url : `http://${url}`, token };
}
