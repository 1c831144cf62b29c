/** The admin API with the token this tab was given; the token lives in sessionStorage only, never in a cookie. */
const KEY = "guardwire.token";

export function takeTokenFromUrl(): void {
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (m) {
    sessionStorage.setItem(KEY, decodeURIComponent(m[1] as string));
    history.replaceState(null, "", location.pathname + location.search);
  }
}

export const token = {
  get: (): string | null => sessionStorage.getItem(KEY),
  set: (t: string) => sessionStorage.setItem(KEY, t),
  clear: () => sessionStorage.removeItem(KEY),
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

let onUnauthorized = () => {};
let refused = false;
export function whenUnauthorized(f: () => void): void {
  onUnauthorized = f;
}

/**
 * The token was refused: said once, and the event stream stops. Without the latch every later 401 (the stream retries
 * each second) drew the login form again, wiping what the user was typing into it.
 */
function unauthorized(): void {
  if (refused) return;
  refused = true;
  onUnauthorized();
}

function headers(json: boolean): HeadersInit {
  const h: Record<string, string> = { authorization: `Bearer ${token.get() ?? ""}` };
  if (json) h["content-type"] = "application/json";
  return h;
}

export async function api<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, { method, headers: headers(method !== "GET"), body: method === "GET" ? undefined : JSON.stringify(body ?? {}), cache: "no-store" });
  const data = (await res.json().catch(() => ({}))) as { error?: { code: string; message: string } };
  if (res.status === 401) unauthorized();
  if (!res.ok) throw new ApiError(res.status, data.error?.code ?? `HTTP_${res.status}`, data.error?.message ?? `HTTP ${res.status}`, data);
  return data as T;
}

export type Listener = (event: string, data: unknown) => void;

/**
 * `GET /api/events` read with fetch, because EventSource cannot send the Authorization header. Reconnects after a
 * second when the stream ends; `status` says whether it is live. Once the token is refused it stops: the page is the
 * login form until the user gives another token (which reloads it).
 */
export function follow(listener: Listener, status: (live: boolean) => void): void {
  const run = async () => {
    while (!refused) {
      try {
        const res = await fetch("/api/events", { headers: headers(false), cache: "no-store" });
        if (res.status === 401) unauthorized();
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        status(true);
        await readEvents(res.body, listener);
      } catch {
        // reconnect below
      }
      if (refused) return;
      status(false);
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
  void run();
}

async function readEvents(body: ReadableStream<Uint8Array>, listener: Listener): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length === 0) continue;
      try {
        listener(event, JSON.parse(data.join("\n")));
      } catch {
        // one unreadable event is skipped, the stream goes on
      }
    }
  }
}

/**
 * Fetches a file the admin API streams (it needs the token, so a plain link cannot) and saves it under the name the
 * server gives. The browser holds the one file while saving it; the server streams it from the log line by line.
 */
export async function download(path: string): Promise<{ name: string; bytes: number }> {
  const res = await fetch(path, { headers: headers(false), cache: "no-store" });
  if (res.status === 401) unauthorized();
  if (!res.ok) {
    const data = (await res.json().catch(() => ({}))) as { error?: { code: string; message: string } };
    throw new ApiError(res.status, data.error?.code ?? `HTTP_${res.status}`, data.error?.message ?? `HTTP ${res.status}`, data);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "guardwire-decisions";
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { name, bytes: blob.size };
}
