import type { DecisionInput } from "../decision-log/record.js";
import type { Verdict } from "../guardian/verdict.js";
import { classify, type JsonRpcId } from "../protocol/json-rpc.js";
import type { Peer, SendInfo } from "../transports/types.js";
import { atTurnEnd } from "../turn.js";
import type { DecisionSink } from "./pipeline.js";

/** Something the session did toward a peer, held until its turn's lines are committed; a send says what it was, so it can be refused instead. */
export interface Held {
  run: () => void;
  send?: { side: "upstream" | "downstream"; text: string; info: SendInfo | undefined; own: boolean };
}

type Line = { make: () => DecisionInput; verdict?: Verdict };

/**
 * A decision is committed to the log before what it decided leaves: the session's sends are held (`peer`), and at the
 * end of the turn — once everything the turn's input held has been judged: at the end of a stdio chunk's handling, or
 * in a microtask (turn.ts) — the turn's decision lines are made and written, and the log's barrier releases the held
 * sends, in order, once the lines are in the file (with `--log-sync always`, on disk). Every session's turn shares the log's one write (group commit). If the lines cannot be
 * committed, nothing of the turn goes on (`refuse`). So a `kill -9` never leaves a forwarded message without its
 * decision line.
 */
export class TurnCommit {
  private held: Held[] = [];
  private readonly backlog: Line[] = [];
  private releasing = false;
  /** Set while the session sends an answer of its own (a block, a refusal): see `refuse`. */
  private authoring = false;

  constructor(
    private readonly log: DecisionSink,
    /** The turn's sends whose lines could not be committed. */
    private readonly refuse: (held: Held[]) => void,
    /** Told of each line written (the `recorded` stages), with the verdict it records when there is one. */
    private readonly recorded: ((line: DecisionInput, verdict: Verdict) => void) | null,
  ) {}

  /** A decision line of this turn. */
  record(make: () => DecisionInput, verdict?: Verdict): void {
    this.backlog.push({ make, verdict });
    if (this.backlog.length === 1 && this.held.length === 0) atTurnEnd(this.drain);
  }

  /** Runs `fn` with this turn's sends, after them: once their lines are committed (or could not be). */
  hold(fn: () => void, send?: Held["send"]): void {
    if (this.releasing) return fn();
    this.held.push({ run: fn, send });
    if (this.held.length === 1 && this.backlog.length === 0) atTurnEnd(this.drain);
  }

  /** Runs `fn` once everything sent so far has been released (its lines committed), or could not be. */
  afterCommitted(fn: () => void): void {
    if (this.log.barrier) this.log.barrier(fn, fn);
    else fn();
  }

  /** Runs `send` as an answer of the session's own (a block, a refusal, an error), not something passed on. */
  authored(send: () => void): void {
    this.authoring = true;
    try {
      send();
    } finally {
      this.authoring = false;
    }
  }

  /** A peer whose sends wait for the decision lines of their turn. */
  peer<P extends Peer & { abandon?(request: string): void }>(side: "upstream" | "downstream", peer: P): P {
    const holding = {
      send: (text: string, info?: SendInfo) => this.hold(() => peer.send(text, info), { side, text, info, own: this.authoring }),
      end: peer.end ? (stream: string) => this.hold(() => peer.end?.(stream)) : undefined,
      abandon: peer.abandon ? (request: string) => this.hold(() => peer.abandon?.(request)) : undefined,
    };
    return holding as unknown as P;
  }

  private readonly drain = (): void => {
    const log = this.log;
    if (this.backlog.length > 0) {
      for (const { make, verdict } of this.backlog.splice(0)) {
        const line = make();
        log.write(line);
        if (verdict && this.recorded) this.recorded(line, verdict);
      }
    }
    if (this.held.length === 0) return;
    const held = this.held;
    this.held = [];
    if (!log.barrier) return release(held);
    log.barrier(
      () => release(held),
      () => {
        this.releasing = true;
        try {
          this.refuse(held);
        } finally {
          this.releasing = false;
        }
      },
    );
  };
}

/**
 * The lines of a turn could not be committed: nothing of that turn is forwarded. Requests are answered with -32051
 * (`requestRefused`: the agent's through its pending entry, the server's directly), responses are replaced by -32051 to
 * the same id (`refusal`), notifications are dropped; streams are still ended; the session's own answers (blocks,
 * refusals: nothing passed on) go as they are. The decision lines stay held by the writer and are written when it can.
 */
export function refuseUncommitted(held: Held[], o: { refusal(id: JsonRpcId): unknown; requestRefused(side: "upstream" | "downstream", id: string | number): void; send(side: "upstream" | "downstream", text: string, info: SendInfo | undefined): void }): void {
  for (const { run, send } of held) {
    if (!send || send.own) {
      run();
      continue;
    }
    const value: unknown = JSON.parse(send.text);
    const kept: unknown[] = [];
    for (const el of Array.isArray(value) ? value : [value]) {
      const c = classify(el);
      if (!c.ok || c.kind === "notification") continue;
      if (c.kind === "response") kept.push(o.refusal(c.id));
      else if (c.id !== null) o.requestRefused(send.side, c.id);
    }
    if (kept.length > 0) o.send(send.side, JSON.stringify(Array.isArray(value) ? kept : kept[0]), send.info);
  }
}

function release(held: Held[]): void {
  for (const h of held) h.run();
}
