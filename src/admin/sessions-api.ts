import type { ControlResult, SessionInfo, SessionRegistry } from "../control/registry.js";
import type { EventSource } from "./events.js";
import { fail, type AdminAnswer, type AdminRoute } from "./server.js";

/** Session ids are guardwire's (`s-…`, UUIDs) or a caller's (`a2a:…`, `stateless:…`): any URL-escaped text. */
const ID = "([^/]+)";

/** Live sessions: list, read, suspend, resume, kill (docs/sessions.md). */
export function sessionRoutes(registry: SessionRegistry): AdminRoute[] {
  const id = (m: RegExpExecArray) => decodeURIComponent(m[1] as string);
  const answer = (r: ControlResult, extra: Record<string, unknown> = {}): AdminAnswer => (r.ok ? [200, { session: r.session, ...extra }] : fail(404, r.code, r.message));
  return [
    { method: "GET", pattern: /^\/api\/sessions$/, doc: "GET /api/sessions", run: () => [200, { sessions: registry.list() }] },
    {
      method: "GET",
      pattern: new RegExp(`^/api/sessions/${ID}$`),
      doc: "GET /api/sessions/:id",
      run: (m) => {
        const s = registry.get(id(m));
        return s ? [200, { session: s }] : fail(404, "NOT_FOUND", `no live session ${id(m)}`);
      },
    },
    {
      method: "POST",
      pattern: new RegExp(`^/api/sessions/${ID}/suspend$`),
      doc: "POST /api/sessions/:id/suspend",
      run: async (m, r) => {
        const b = await r.body();
        if (b.mode !== undefined && b.mode !== "hold" && b.mode !== "refuse") return fail(400, "BAD_REQUEST", "mode must be hold or refuse");
        const reason = reasonOf(b);
        if (reason === false) return reasonError();
        return answer(registry.suspend(id(m), { mode: b.mode, reason }));
      },
    },
    { method: "POST", pattern: new RegExp(`^/api/sessions/${ID}/resume$`), doc: "POST /api/sessions/:id/resume", run: (m) => answer(registry.resume(id(m))) },
    {
      method: "POST",
      pattern: new RegExp(`^/api/sessions/${ID}/kill$`),
      doc: "POST /api/sessions/:id/kill",
      run: async (m, r) => {
        const reason = reasonOf(await r.body());
        if (reason === false) return reasonError();
        return answer(registry.kill(id(m), reason), { killed: true });
      },
    },
  ];
}

/** `session.opened`, `session.updated`, `session.closed` on `GET /api/events`, each `{session}`. */
export function sessionEvents(registry: SessionRegistry): EventSource {
  return (emit) => {
    const on = {
      opened: (session: SessionInfo) => emit("session.opened", { session }),
      updated: (session: SessionInfo) => emit("session.updated", { session }),
      closed: (session: SessionInfo) => emit("session.closed", { session }),
    };
    for (const [name, f] of Object.entries(on)) registry.on(name as keyof typeof on, f);
    return () => {
      for (const [name, f] of Object.entries(on)) registry.off(name as keyof typeof on, f);
    };
  };
}

function reasonOf(b: Record<string, unknown>): string | undefined | false {
  const reason = b.reason;
  if (reason === undefined || reason === null || reason === "") return undefined;
  return typeof reason === "string" && reason.length <= 500 ? reason : false;
}

const reasonError = () => fail(400, "BAD_REQUEST", "reason must be a string of at most 500 characters");
