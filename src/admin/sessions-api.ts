import type { ControlResult, SessionDesk, SessionInfo, SessionRegistry } from "../control/registry.js";
import type { EventSource } from "./events.js";
import { fail, type AdminAnswer, type AdminRoute } from "./server.js";

/** Session ids are guardwire's (`s-…`, UUIDs) or a caller's (`a2a:…`, `stateless:…`): any URL-escaped text. */
const ID = "([^/]+)";

/**
 * Live sessions: list, read, suspend, resume, kill (docs/sessions.md). `registry`: this process's, or with a shared
 * store every replica's (docs/scale.md).
 */
export function sessionRoutes(registry: SessionDesk): AdminRoute[] {
  const id = (m: RegExpExecArray) => decodeURIComponent(m[1] as string);
  const answer = async (pending: ControlResult | Promise<ControlResult>, extra: Record<string, unknown> = {}): Promise<AdminAnswer> => {
    const r = await pending;
    return r.ok ? [200, { session: r.session, ...extra }] : fail(r.code === "NOT_FOUND" ? 404 : 503, r.code, r.message);
  };
  return [
    {
      method: "GET",
      pattern: /^\/api\/sessions$/,
      doc: "GET /api/sessions",
      run: async () => {
        const listed = await registry.list();
        return [200, Array.isArray(listed) ? { sessions: listed } : listed];
      },
    },
    {
      method: "GET",
      pattern: new RegExp(`^/api/sessions/${ID}$`),
      doc: "GET /api/sessions/:id",
      run: async (m) => {
        const s = await registry.get(id(m));
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
        const by = byOf(b);
        if (by === false) return byError();
        return answer(registry.suspend(id(m), { mode: b.mode, reason, by }));
      },
    },
    {
      method: "POST",
      pattern: new RegExp(`^/api/sessions/${ID}/resume$`),
      doc: "POST /api/sessions/:id/resume",
      run: async (m, r) => {
        const by = byOf(await r.body());
        return by === false ? byError() : answer(registry.resume(id(m), { by }));
      },
    },
    {
      method: "POST",
      pattern: new RegExp(`^/api/sessions/${ID}/kill$`),
      doc: "POST /api/sessions/:id/kill",
      run: async (m, r) => {
        const b = await r.body();
        const reason = reasonOf(b);
        if (reason === false) return reasonError();
        const by = byOf(b);
        if (by === false) return byError();
        return answer(registry.kill(id(m), reason, by), { killed: true });
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

/** Who acted (the CLI sends the user's login name), written in the action's log line. */
function byOf(b: Record<string, unknown>): string | undefined | false {
  if (b.by === undefined || b.by === null || b.by === "") return undefined;
  return typeof b.by === "string" && b.by.length <= 100 ? b.by : false;
}

const byError = () => fail(400, "BAD_REQUEST", "by must be a string of at most 100 characters");
const reasonError = () => fail(400, "BAD_REQUEST", "reason must be a string of at most 500 characters");
