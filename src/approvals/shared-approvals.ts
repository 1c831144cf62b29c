import type { ApprovalBroker, ApprovalDesk, ApprovalOutcome, Decision, DeskResult, HeldApproval } from "./broker.js";
import type { LinkUses } from "./webhook.js";
import type { Remembered } from "./remembered.js";
import type { OpsBus } from "../store/ops-bus.js";

/** A decided approval is remembered this long, so a late second decision is told so (409), not "never asked". */
const DECIDED_MS = 10 * 60_000;
/** The index of held approvals outlives any single one (its members are pruned by their expiry). */
const INDEX_MS = 25 * 3_600_000;
const RECENT = 1024;

/**
 * Held approvals across replicas (docs/scale.md). The call waits on the replica that holds it, in that replica's
 * broker; Redis keeps a copy of each held approval (until its expiry) for listing, and the operator channel takes a
 * decision made through any replica to the holder, whose broker settles each approval once: exactly one decision wins,
 * the others are told 409. Timeouts fire on the holder as without a store.
 */
export class SharedApprovals implements ApprovalDesk, LinkUses {
  /** Approvals this replica held and settled lately: a later decision gets a 409 saying how it ended. */
  private readonly recent = new Map<string, string>();
  private readonly index: string;
  /** `remember: always` approvals of every replica: a hash of approval id → Remembered. */
  private readonly always: string;
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly bus: OpsBus,
    private readonly broker: ApprovalBroker,
  ) {
    this.index = bus.store.key("approvals", "held");
    this.always = bus.store.key("approvals", "always");
    const requested = (held: HeldApproval) => this.held(held);
    const decided = (held: HeldApproval, outcome: ApprovalOutcome) => this.settled(held, outcome);
    const remembered = (r: Remembered) => this.remembered(r);
    const forgot = (id: string) => this.forgot(id);
    broker.on("requested", requested);
    broker.on("decided", decided);
    broker.on("remembered", remembered);
    broker.on("forgot", forgot);
    this.stops.push(
      () => broker.off("requested", requested),
      () => broker.off("decided", decided),
      () => broker.off("remembered", remembered),
      () => broker.off("forgot", forgot),
      bus.on("approval.remembered", (b) => broker.adopt((b as { remembered: Remembered }).remembered)),
      bus.on("approval.forgotten", (b) => void broker.drop((b as { id: string }).id)),
      // Whenever Redis is (again) reachable, the approvals remembered for good by any replica are loaded.
      bus.store.onState((st) => {
        if (st.state === "up") void this.loadRemembered();
      }),
    );
    bus.handle("approval.decide", (body) => {
      const { id, decision } = body as { id: string; decision: Decision };
      return this.decideHere(id, decision);
    });
  }

  /** Approvals held on other replicas as they are requested and decided (for the event stream). */
  events(emit: (event: string, data: unknown) => void): () => void {
    const offs = [this.bus.on("approval.requested", (b) => emit("approval.requested", b)), this.bus.on("approval.decided", (b) => emit("approval.decided", b))];
    return () => offs.forEach((off) => off());
  }

  async list(): Promise<{ approvals: HeldApproval[]; incomplete?: string }> {
    const mine = this.broker.list().map((a) => this.tag(a));
    try {
      return { approvals: [...mine, ...(await this.others())] };
    } catch (e) {
      return { approvals: mine, incomplete: this.unreachable(e) };
    }
  }

  async get(id: string): Promise<HeldApproval | undefined> {
    const mine = this.broker.get(id);
    if (mine) return this.tag(mine);
    if (this.recent.has(id)) return undefined;
    const text = await this.bus.store.client.get(this.heldKey(id)).catch(() => null);
    return text ? (JSON.parse(text) as HeldApproval) : undefined;
  }

  async decide(id: string, d: Decision): Promise<DeskResult> {
    if (this.broker.get(id) || this.recent.has(id)) return this.decideHere(id, d);
    const client = this.bus.store.client;
    let found: [string | null, string | null];
    try {
      found = (await client.mget(this.heldKey(id), this.decidedKey(id))) as [string | null, string | null];
    } catch (e) {
      return { ok: false, code: "UNAVAILABLE", message: this.unreachable(e) };
    }
    const [held, decided] = found;
    if (decided) return { ok: false, code: "CONFLICT", message: `approval ${id} was ${decided}` };
    if (!held) return { ok: false, code: "NOT_FOUND", message: `no held approval ${id} (decided, expired or never asked)` };
    const holder = (JSON.parse(held) as HeldApproval).replica ?? "";
    let replies;
    try {
      replies = await this.bus.request("approval.decide", { id, decision: d }, holder);
    } catch (e) {
      return { ok: false, code: "UNAVAILABLE", message: this.unreachable(e) };
    }
    const answer = replies.answers[0]?.body as DeskResult | undefined;
    return answer ?? { ok: false, code: "UNAVAILABLE", message: `replica ${holder}, which holds approval ${id}, did not answer (it may have stopped; its held calls then ended with it)` };
  }

  async used(id: string): Promise<"approve" | "deny" | undefined> {
    const v = await this.bus.store.client.get(this.bus.store.key("approval", id, "link")).catch(() => null);
    return v === "approve" || v === "deny" ? v : undefined;
  }

  use(id: string, action: "approve" | "deny", ttlMs: number): void {
    this.bus.store.client.set(this.bus.store.key("approval", id, "link"), action, "PX", Math.max(1000, ttlMs)).catch(() => undefined);
  }

  close(): void {
    for (const stop of this.stops) stop();
  }

  private decideHere(id: string, d: Decision): DeskResult {
    const r = this.broker.decide(id, d);
    if (r.ok) return { ok: true, approval: this.tag(r.approval) };
    const ended = this.recent.get(id);
    if (r.code === "NOT_FOUND" && ended) return { ok: false, code: "CONFLICT", message: `approval ${id} was ${ended}` };
    return r;
  }

  /** The held approvals of the other live replicas; those of a replica whose heartbeat stopped are dropped. */
  private async others(): Promise<HeldApproval[]> {
    const client = this.bus.store.client;
    const [ids, live] = await Promise.all([client.zrangebyscore(this.index, Date.now(), "+inf"), this.bus.replicas()]);
    if (ids.length === 0) return [];
    const alive = new Set(live);
    const texts = await client.mget(...ids.map((id) => this.heldKey(id)));
    const out: HeldApproval[] = [];
    const ghosts: string[] = [];
    texts.forEach((text, i) => {
      if (!text) return;
      const a = JSON.parse(text) as HeldApproval;
      if (a.replica === this.bus.replica) return;
      if (a.replica && alive.has(a.replica)) out.push(a);
      else ghosts.push(ids[i] as string);
    });
    if (ghosts.length > 0) this.forget(ghosts);
    return out;
  }

  /** Written without waiting: the approval is held and decidable here whatever Redis does. */
  private held(held: HeldApproval): void {
    const a = this.tag(held);
    const expires = Date.parse(a.expiresAt);
    const now = Date.now();
    this.bus.store.client
      .multi()
      .set(this.heldKey(a.id), JSON.stringify(a), "PX", Math.max(1000, expires - now + 5000))
      .zadd(this.index, expires, a.id)
      .zremrangebyscore(this.index, "-inf", now)
      .pexpire(this.index, INDEX_MS)
      .exec()
      .catch(() => undefined);
    this.bus.emit("approval.requested", { approval: a });
  }

  private settled(held: HeldApproval, outcome: ApprovalOutcome): void {
    const how = describe(outcome, this.bus.replica);
    this.recent.set(held.id, how);
    if (this.recent.size > RECENT) this.recent.delete(this.recent.keys().next().value as string);
    this.bus.store.client
      .multi()
      .del(this.heldKey(held.id))
      .zrem(this.index, held.id)
      .set(this.decidedKey(held.id), how, "PX", DECIDED_MS)
      .exec()
      .catch(() => undefined);
    this.bus.emit("approval.decided", { approval: this.tag(held), outcome });
  }

  /**
   * Remembered for good here: kept in Redis and told to the other replicas, which add it to their own (each judges
   * from memory: no round trip per message). The hash lives as long as its newest entry.
   */
  private remembered(r: Remembered): void {
    const ms = r.expiresAt ? Math.max(1000, Date.parse(r.expiresAt) - Date.now()) : INDEX_MS;
    this.bus.store.client.multi().hset(this.always, r.id, JSON.stringify(r)).pexpire(this.always, ms, "GT").pexpire(this.always, ms, "NX").exec().catch(() => undefined);
    this.bus.emit("approval.remembered", { remembered: r });
  }

  private forgot(id: string): void {
    (id === "all" ? this.bus.store.client.del(this.always) : this.bus.store.client.hdel(this.always, id)).catch(() => undefined);
    this.bus.emit("approval.forgotten", { id });
  }

  private async loadRemembered(): Promise<void> {
    const all = await this.bus.store.client.hgetall(this.always).catch(() => ({}) as Record<string, string>);
    const now = Date.now();
    const expired: string[] = [];
    for (const [id, text] of Object.entries(all)) {
      const r = JSON.parse(text) as Remembered;
      if (r.expiresAt && Date.parse(r.expiresAt) <= now) expired.push(id);
      else this.broker.adopt(r);
    }
    if (expired.length > 0) this.bus.store.client.hdel(this.always, ...expired).catch(() => undefined);
  }

  private forget(ids: string[]): void {
    this.bus.store.client
      .multi()
      .del(...ids.map((id) => this.heldKey(id)))
      .zrem(this.index, ...ids)
      .exec()
      .catch(() => undefined);
  }

  private tag(a: HeldApproval): HeldApproval {
    return { ...a, replica: this.bus.replica };
  }

  private heldKey(id: string): string {
    return this.bus.store.key("approval", id);
  }

  private decidedKey(id: string): string {
    return this.bus.store.key("approval", id, "decided");
  }

  private unreachable(e: unknown): string {
    return this.bus.store.unavailable((e as Error).message).message;
  }
}

function describe(o: ApprovalOutcome, replica: string): string {
  const where = `on replica ${replica}`;
  if (o.outcome === "approved" || o.outcome === "refused") return `${o.outcome} already (through ${o.channel}${o.by ? ` by ${o.by}` : ""}, ${where})`;
  if (o.outcome === "timeout") return `already decided by its timeout (${where})`;
  if (o.outcome === "cancelled") return `withdrawn by the agent (${where})`;
  return `ended as its session or guardwire stopped (${where})`;
}
