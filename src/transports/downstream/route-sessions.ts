import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode } from "../../protocol/json-rpc.js";
import type { UpstreamState } from "../types.js";
import { HttpSession } from "./http-session.js";

/** What a session token seals about a session, besides its route. */
export interface SessionState {
  agent: string | null;
  /** The guardian's session id: the same on every replica that continues the session. */
  session: string;
  upstream: UpstreamState | null;
  server: { name: string; version: string } | null;
}

/** Why a token's session is not continued here: the HTTP status, the message, and the JSON-RPC code (default -32001). */
export interface RestoreRefusal {
  status: 404 | 503;
  message: string;
  code?: number;
}

/** Session ids as sealed tokens (docs/scale.md), for one route. */
export interface SessionContinuity {
  /** The token naming this session; `owned`: it lives in this replica whatever the route's upstream. */
  seal(state: SessionState, owned?: boolean): string;
  /**
   * The session a token names, to continue here; or the refusal: 404 (not sealed by us, another route or agent, killed
   * or ended, or it lives in a replica) or 503 (the shared store cannot say whether it was killed).
   */
  restore(token: string, agent: string | null): Promise<SessionState | RestoreRefusal>;
  /**
   * The session ended for good (DELETE, kill, the server lost it): no replica continues it, and every replica holding
   * it ends its copy; settles once they have.
   */
  ended(session: string): Promise<void>;
  /** Sessions ended on another replica are ended here through `w` (several replicas). */
  watch?(w: EndWatcher): () => void;
  /** Other replicas may continue sessions: one that idles out or a replica that stops lets go without ending it. */
  readonly shared: boolean;
  /** Event ids of resumable streams start with this (`<replica>~`), so a resumption finds the replica keeping them. */
  readonly eventPrefix: string;
  /**
   * Several replicas: the server's requests to the agent (sampling, elicitation…) are recorded with the replica that
   * delivered them, and the agent's answer landing on another replica is relayed there, to the session awaiting it.
   */
  relay?: {
    asked(session: string, request: string): void;
    askedWhere(session: string, request: string): Promise<string | null>;
    /** False: not sent (the request was itself forwarded here): it is answered here. */
    send(replica: string, req: IncomingMessage, res: ServerResponse, body: string): boolean;
  };
}

/** A route's sessions as the replicas' ends reach them (src/proxy/continuity.ts). */
export interface EndWatcher {
  /** Another replica ended this session (its server session is gone): end the copy held here; true if there was one. */
  end(session: string): boolean;
  /** The guardian session ids held here, to be checked after a time ends could not be heard of. */
  held(): string[];
}

/** The agent making an HTTP request, as the server's auth layer established it. */
export interface HttpCaller {
  agent: { id: string } | null;
  /** Protocol headers to pass upstream (e.g. the agent's Authorization when guardwire did not consume it). */
  forward: Record<string, string>;
}

/** Makes a downstream session (`id` "" for a stateless exchange) linked to a new guarded session upstream. */
export type MakeSession = (
  id: string,
  caller: HttpCaller,
  guardianSession: string,
  onEnd: (ended: boolean) => Promise<void> | undefined | void,
  resume?: { upstream: UpstreamState | null; server: SessionState["server"] },
) => HttpSession;

/** Ended sessions whose reason is kept for the agent's next request, and for how long. */
const GONE_KEPT = 1024;
const GONE_MS = 3_600_000;
/** Tokens being restored at once: past it, a second request for one restores it again rather than wait. */
const RESTORING_KEPT = 1024;

/**
 * A route's live sessions, by the id the agent holds, and their continuity across replicas: a session another replica
 * began is continued from its sealed token, ends heard from other replicas end the copy held here, and a session that
 * ended without the agent's DELETE says why in the agent's next 404.
 */
export class RouteSessions {
  private readonly sessions = new Map<string, HttpSession>();
  /** Tokens being restored (a read of the shared store): a second request for one waits for the first. */
  private readonly restoring = new Map<string, Promise<HttpSession | RestoreRefusal>>();
  /**
   * Why sessions ended here without the agent's DELETE (killed by an operator, the server gone), by the id the agent
   * holds: its next request learns why in the 404. Bounded: the newest GONE_KEPT, for at most GONE_MS.
   */
  private readonly endedWhy = new Map<string, { reason: string; at: number }>();
  private readonly unwatch: () => void;

  constructor(
    private readonly continuity: SessionContinuity | undefined,
    private readonly maxSessions: number,
    private readonly make: MakeSession,
  ) {
    this.unwatch = continuity?.watch?.({ end: (id) => this.endedElsewhere(id), held: () => this.held() }) ?? (() => {});
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Every session held here. */
  all(): Set<HttpSession> {
    return new Set(this.sessions.values());
  }

  /** The session `sid` names when it is held here and is the caller's, at once (no promise: the common case). */
  heldFor(sid: string, caller: HttpCaller): HttpSession | undefined {
    const found = this.sessions.get(sid);
    return found && found.agentId === (caller.agent?.id ?? null) ? found : undefined;
  }

  /** The session `sid` names, if it is the caller's: held here, or continued from its token; else why not. */
  async find(sid: string, caller: HttpCaller): Promise<HttpSession | RestoreRefusal> {
    const found = this.sessions.get(sid) ?? (await this.restore(sid, caller));
    if (found instanceof HttpSession) return found.agentId === (caller.agent?.id ?? null) ? found : { status: 404, message: "Session not found" };
    const why = this.endedWhy.get(sid);
    return why && Date.now() - why.at < GONE_MS ? { status: 404, message: `Session not found: ${why.reason}` } : found;
  }

  /**
   * A new session. Its id is sealed when first sent, with the answer to `initialize`: by then the token can carry the
   * server's session and name. Until then it is known here by its guardian session id alone.
   */
  open(caller: HttpCaller): HttpSession {
    const guardian = randomUUID();
    const continuity = this.continuity;
    const agent = caller.agent?.id ?? null;
    const s = this.make(guardian, caller, guardian, (ended) => this.forget(s, ended));
    if (continuity) {
      s.sealer = () => {
        const token = continuity.seal({ agent, session: guardian, ...(s.connection.state?.() ?? { upstream: null, server: null }) });
        this.sessions.delete(guardian);
        this.sessions.set(token, s);
        return token;
      };
    }
    this.sessions.set(guardian, s);
    return s;
  }

  /**
   * The replica that delivered the server requests these answers are for, when it is not this one (the agent answers
   * through whichever replica the load balancer picks); null: they are this replica's.
   */
  async askedElsewhere(s: HttpSession, answers: string[]): Promise<string | null> {
    const relay = this.continuity?.relay;
    const unknown = answers.filter((k) => !s.asked.delete(k));
    if (!relay || unknown.length === 0) return null;
    return relay.askedWhere(s.guardianSession, unknown[0] as string);
  }

  /** The session ended because its upstream did (or an operator killed it): remembered for the agent's next request. */
  gone(s: HttpSession, reason: string): void {
    const id = s.clientSessionId();
    if (id === null) return;
    this.endedWhy.delete(id);
    this.endedWhy.set(id, { reason, at: Date.now() });
    while (this.endedWhy.size > GONE_KEPT) this.endedWhy.delete(this.endedWhy.keys().next().value as string);
  }

  /** A session idle or on a replica that stops: released when another replica may continue it, else ended. */
  letGo(s: HttpSession): Promise<void> {
    return this.continuity?.shared ? s.letGo() : s.end();
  }

  /** The replica stops: every session is let go of. */
  async close(): Promise<void> {
    this.unwatch();
    await Promise.all([...this.all()].map((s) => this.letGo(s)));
  }

  /** Another replica ended the session: this replica's copy is let go (the server's session is already ended). */
  private endedElsewhere(guardianSession: string): boolean {
    let found = false;
    for (const s of this.sessions.values()) {
      if (s.guardianSession !== guardianSession) continue;
      found = true;
      void s.letGo();
    }
    return found;
  }

  /** The guardian session ids of the sessions held here that another replica could end (they have a token). */
  private held(): string[] {
    return [...new Set([...this.sessions.values()].filter((s) => s.sealed !== null).map((s) => s.guardianSession))];
  }

  private forget(s: HttpSession, ended: boolean): Promise<void> | undefined {
    this.sessions.delete(s.guardianSession);
    if (s.sealed !== null) this.sessions.delete(s.sealed);
    return ended && s.sealed !== null ? this.continuity?.ended(s.guardianSession) : undefined;
  }

  /** A session another replica began (or this one let go of), continued from its token; or why it cannot be. */
  private restore(token: string, caller: HttpCaller): Promise<HttpSession | RestoreRefusal> {
    const continuity = this.continuity;
    if (!continuity) return Promise.resolve({ status: 404, message: "Session not found" });
    let pending = this.restoring.get(token);
    if (pending) return pending;
    pending = (async () => {
      const state = await continuity.restore(token, caller.agent?.id ?? null);
      if ("status" in state) return state;
      const again = this.sessions.get(token);
      if (again) return again;
      if (this.sessions.size >= this.maxSessions) return { status: 503 as const, code: ErrorCode.ServerError, message: `Service Unavailable: this route already has ${this.sessions.size} sessions on this replica; retry later` };
      const s = this.make(state.session, caller, state.session, (ended) => this.forget(s, ended), { upstream: state.upstream, server: state.server });
      s.sealed = token;
      this.sessions.set(token, s);
      return s;
    })().finally(() => this.restoring.delete(token));
    if (this.restoring.size < RESTORING_KEPT) this.restoring.set(token, pending);
    return pending;
  }
}
