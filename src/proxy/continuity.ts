import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode } from "../protocol/json-rpc.js";
import type { SharedStore } from "../store/redis.js";
import { killedKey } from "../store/sessions-ops.js";
import type { SessionTicket, SessionTokens } from "../store/session-token.js";
import type { SessionContinuity, SessionState } from "../transports/downstream/streamable-http.js";

export interface ContinuityOptions {
  tokens: SessionTokens;
  /** This replica's id: sessions that cannot move are sealed naming it. */
  replica: string;
  /** Where kills and ends are recorded (several replicas); null: one process. */
  store: SharedStore | null;
  /** Other processes hold the keys (`sessions.keys`): sessions are let go of, not ended, when idle here. */
  shared: boolean;
  /** Replicas find each other (a registry): event ids name the replica keeping a stream's replay log. */
  cluster: boolean;
  /** Sends a request, its body already read, to another replica (src/proxy/forward.ts). */
  forward?: (replica: string, req: IncomingMessage, res: ServerResponse, body: string) => boolean;
}

/** How long a session ended for good stays recorded, so that no replica continues it from its token. */
const ENDED_TTL_SECONDS = 24 * 3600;
const NOT_FOUND = { status: 404 as const, message: "Session not found" };
/** Sessions ended for good remembered in this process (oldest forgotten first), with or without a store. */
const ENDED_HERE = 10_000;
/** How long a server's request to the agent is remembered with the replica that delivered it. */
const ASKED_TTL_SECONDS = 600;

/**
 * Sealed session ids for one route (docs/scale.md). A session whose upstream is Streamable HTTP can be continued by any
 * replica from its token; every other kind lives in the replica named in it, which the others forward to
 * (src/proxy/forward.ts).
 */
export function routeContinuity(o: ContinuityOptions, route: string, movable: boolean): SessionContinuity {
  const { store, forward } = o;
  const endedHere = new Set<string>();
  const relay: SessionContinuity["relay"] =
    store && forward && movable
      ? {
          asked(session, request) {
            // Needs no answer: without it, an answer landing on another replica is dropped as unsolicited (and logged).
            store.client.set(store.key("session", session, "asked", request), o.replica, "EX", ASKED_TTL_SECONDS).catch(() => {});
          },
          async askedWhere(session, request) {
            try {
              const at = await store.client.get(store.key("session", session, "asked", request));
              return at === o.replica ? null : at;
            } catch {
              return null;
            }
          },
          send: forward,
        }
      : undefined;
  return {
    relay,
    shared: o.shared,
    eventPrefix: o.cluster ? `${o.replica}~` : "",
    seal(state: SessionState, owned = false): string {
      const ticket: SessionTicket = {
        route,
        agent: state.agent,
        session: state.session,
        upstream: state.upstream?.sessionId ?? null,
        protocol: state.upstream?.protocolVersion ?? null,
        server: state.server,
        owner: owned || !movable ? o.replica : null,
        issued: Math.floor(Date.now() / 1000),
      };
      try {
        return o.tokens.seal(ticket);
      } catch {
        // A server session id too long for a header: the session stays with this replica instead.
        return o.tokens.seal({ ...ticket, upstream: null, protocol: null, owner: o.replica });
      }
    },
    async restore(token, agent) {
      const t = o.tokens.open(token);
      // A session that lives in a replica was forwarded there when that replica is alive; reaching here, it is gone.
      if (!t || t.route !== route || t.agent !== agent || t.owner !== null || endedHere.has(t.session)) return NOT_FOUND;
      if (store) {
        try {
          // Once per session per replica, not per message: killed by an operator, or ended by the agent.
          if ((await store.client.exists(killedKey(store, t.session), endedKey(store, t.session))) > 0) return NOT_FOUND;
        } catch {
          if (store.onUnavailable === "closed") return { status: 503, code: ErrorCode.GuardianUnavailable, message: `Service Unavailable: ${store.unavailable().message}; the session cannot be continued on this replica now` };
        }
      }
      return { agent: t.agent, session: t.session, upstream: t.upstream === null ? null : { sessionId: t.upstream, protocolVersion: t.protocol }, server: t.server };
    },
    ended(session) {
      if (endedHere.size >= ENDED_HERE) endedHere.delete(endedHere.values().next().value as string);
      endedHere.add(session);
      // Needs no answer: a replica that misses it finds the server's session gone on its first request.
      store?.client.set(endedKey(store, session), "1", "EX", ENDED_TTL_SECONDS).catch(() => {});
    },
  };
}

/** The mark of a session ended for good (DELETE, the server lost it), beside an operator's kill (`killedKey`). */
function endedKey(store: SharedStore, session: string): string {
  return store.key("session", session, "ended");
}
