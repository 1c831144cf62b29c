import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode } from "../protocol/json-rpc.js";
import type { OpsBus } from "../store/ops-bus.js";
import type { SharedStore } from "../store/redis.js";
import { killedKey, type SessionTicket, type SessionTokens } from "../store/session-token.js";
import type { EndWatcher, SessionContinuity, SessionState } from "../transports/downstream/streamable-http.js";

export interface ContinuityOptions {
  tokens: SessionTokens;
  /** This replica's id: sessions that cannot move are sealed naming it. */
  replica: string;
  /** Where kills and ends are recorded (several replicas); null: one process. */
  store: SharedStore | null;
  /** Sessions ended for good, here and on every replica (one per process). */
  ends: SessionEnds;
  /** Other processes hold the keys (`sessions.keys`): sessions are let go of, not ended, when idle here. */
  shared: boolean;
  /** Replicas find each other (a registry): event ids name the replica keeping a stream's replay log. */
  cluster: boolean;
  /** Sends a request, its body already read, to another replica (src/proxy/forward.ts). */
  forward?: (replica: string, req: IncomingMessage, res: ServerResponse, body: string) => boolean;
}

const NOT_FOUND = { status: 404 as const, message: "Session not found" };
/** `sessions.maxAgeSeconds` when there is no `sessions:` (tokens open in this process only). */
export const DEFAULT_SESSION_MAX_AGE_SECONDS = 86_400;
/** Sessions ended for good remembered in this process (oldest forgotten first), with or without a store. */
const ENDED_HERE = 10_000;
/** Replicas' clocks agree within this (as for the hop header): an end is kept this much longer than a token lives. */
const CLOCK_SKEW_SECONDS = 60;
/** The operator channel's request: end your copy of this session. */
const ENDED = "session.ended";
/** How long a server's request to the agent is remembered with the replica that delivered it. */
const ASKED_TTL_SECONDS = 600;

/**
 * Sealed session ids for one route (docs/scale.md). A session whose upstream is Streamable HTTP can be continued by any
 * replica from its token; every other kind lives in the replica named in it, which the others forward to
 * (src/proxy/forward.ts).
 */
export function routeContinuity(o: ContinuityOptions, route: string, movable: boolean): SessionContinuity {
  const { store, forward, ends } = o;
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
      if (!t || t.route !== route || t.agent !== agent || t.owner !== null || ends.has(t.session)) return NOT_FOUND;
      // Past its lifetime the mark of its end may be gone: no replica continues it from its token.
      if (Date.now() / 1000 - t.issued > ends.maxAgeSeconds) return NOT_FOUND;
      if (store) {
        try {
          // Once per session per replica, not per message: killed by an operator, or ended by the agent.
          if ((await store.client.exists(killedKey(store, t.session), endedKey(store, t.session))) > 0) return NOT_FOUND;
        } catch {
          if (store.onUnavailable === "closed") return { status: 503, code: ErrorCode.GuardianUnavailable, message: `Service Unavailable: ${store.unavailable().message}; the session cannot be continued on this replica now` };
        }
      }
      // Ended elsewhere while Redis was read: told over the channel, not yet marked when read.
      if (ends.has(t.session)) return NOT_FOUND;
      return { agent: t.agent, session: t.session, upstream: t.upstream === null ? null : { sessionId: t.upstream, protocolVersion: t.protocol }, server: t.server };
    },
    ended: (session) => ends.end(session),
    watch: (w) => ends.watch(w),
  };
}

/**
 * Sessions ended for good (DELETE, an operator's kill, the server lost it) across replicas (docs/scale.md, "Ends").
 * An end is remembered in this process, marked in Redis for as long as a token can be continued (`sessions.maxAgeSeconds`
 * and a minute), and told to every replica over the operator channel; each ends the copy it holds before answering, and
 * the end is complete (the agent's `DELETE` answered) once they all have. A replica whose link to Redis was down when
 * an end was told checks the sessions it holds against the marks once it hears the channel again.
 */
export class SessionEnds {
  private readonly here = new Set<string>();
  private readonly watchers = new Set<EndWatcher>();

  constructor(
    private readonly store: SharedStore | null,
    private readonly bus: OpsBus | null,
    /** `sessions.maxAgeSeconds`: a token older than this is not continued by a replica that does not hold it. */
    readonly maxAgeSeconds: number,
  ) {
    bus?.handle(ENDED, (body) => this.endHere(String((body as { session?: unknown }).session)));
    bus?.onSubscribed(() => void this.catchUp());
  }

  /** How long the mark of an end (or a kill) stays in Redis: longer than any token it concerns can be continued. */
  get markSeconds(): number {
    return this.maxAgeSeconds + CLOCK_SKEW_SECONDS;
  }

  /** Ended for good, as far as this process knows (without reading Redis). */
  has(session: string): boolean {
    return this.here.has(session);
  }

  /** A route's sessions, ended here when another replica ends them. */
  watch(w: EndWatcher): () => void {
    this.watchers.add(w);
    return () => this.watchers.delete(w);
  }

  /** Records the end here, in Redis and on every replica; settles once they ended their copies (or could not be told). */
  async end(session: string): Promise<void> {
    this.remember(session);
    if (!this.store) return;
    try {
      await this.store.client.set(endedKey(this.store, session), "1", "EX", this.markSeconds);
      await this.bus?.request(ENDED, { session });
    } catch {
      // Redis away: the others learn of it when they hear the channel again, or find the server's session gone.
    }
  }

  private remember(session: string): void {
    if (this.here.size >= ENDED_HERE) this.here.delete(this.here.values().next().value as string);
    this.here.add(session);
  }

  /** Another replica ended the session: so does this one's copy, before the answer. */
  private endHere(session: string): { ended: number } {
    this.remember(session);
    let ended = 0;
    for (const w of this.watchers) if (w.end(session)) ended++;
    return { ended };
  }

  /** The channel is heard again: sessions held here that were ended or killed meanwhile are ended here too. */
  private async catchUp(): Promise<void> {
    const store = this.store;
    const held = [...this.watchers].flatMap((w) => w.held());
    if (!store || held.length === 0) return;
    try {
      const p = store.client.pipeline();
      for (const s of held) p.exists(killedKey(store, s), endedKey(store, s));
      const found = (await p.exec()) ?? [];
      found.forEach(([err, n], i) => {
        if (!err && (n as number) > 0) this.endHere(held[i] as string);
      });
    } catch {
      // read again at the next subscription
    }
  }
}

/** The mark of a session ended for good (DELETE, the server lost it), beside an operator's kill (`killedKey`). */
function endedKey(store: SharedStore, session: string): string {
  return store.key("session", session, "ended");
}
