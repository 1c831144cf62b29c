import type { AgentProtocol } from "../vocabulary.js";
import type { DecisionSink } from "./pipeline.js";
import type { ReasonCode } from "../reasons.js";

/** The bytes of request bodies the whole process holds at once: reserved as they arrive (or as declared), released when the exchange ends. */
export class ByteBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  /** Takes `bytes` from the budget, or nothing and false when they do not fit. */
  reserve(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  release(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}

/** Open connections, in all and per client address: the refusal's reason when one more does not fit, else null. */
export class ConnectionCount {
  private total = 0;
  private readonly perAddress = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly maxPerAddress: number,
  ) {}

  /** Counts a new connection from `address` and returns its release, or the reason it is refused. */
  open(address: string): { release: () => void } | { refused: string } {
    const mine = this.perAddress.get(address) ?? 0;
    if (this.total >= this.max) return { refused: `the proxy has ${this.total} connections open (maxConnections)` };
    if (mine >= this.maxPerAddress) return { refused: `${address} has ${mine} connections open (maxConnectionsPerAddress)` };
    this.total++;
    this.perAddress.set(address, mine + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.total--;
        const left = (this.perAddress.get(address) ?? 1) - 1;
        if (left === 0) this.perAddress.delete(address);
        else this.perAddress.set(address, left);
      },
    };
  }
}

export interface Refusal {
  /** UNAUTHORIZED, HOST_MALFORMED, HOST_NOT_ALLOWED, ORIGIN_NOT_ALLOWED, BODY_TOO_LARGE, PATH_REFUSED, OVER_BUDGET, TOO_MANY_CONNECTIONS. */
  reason: ReasonCode;
  message: string;
  /** The caller's address. */
  peer: string;
  route: { name: string; protocol: AgentProtocol } | null;
  agent: string | null;
  transport: "http" | "websocket";
}

export interface RefusalLogLimits {
  /** Lines per reason and address per window (default 10). */
  perKey: number;
  /** Lines per window in all, every reason and address together (default 100). */
  total: number;
  windowMs: number;
  /** Reason-and-address pairs counted one by one per window; past it, a reason's further addresses count as one (default 100). */
  keys: number;
}

const DEFAULT_LIMITS: RefusalLogLimits = { perKey: 10, total: 100, windowMs: 60_000, keys: 100 };

/**
 * Refusals made before the guardian (bad path, Host, Origin or key, too large, over the byte budget or the connection
 * caps) as decision-log lines of kind `refused`, rate-limited so a flood cannot fill the disk: per window (60 s from
 * the first refusal), the first 10 per reason and address and at most 100 in all are written one by one; the rest are
 * counted, and one summary line per reason and address gives the count when the window ends (or the server closes).
 */
export class RefusalLog {
  private readonly window = new Map<string, { logged: number; suppressed: number; sample: Refusal }>();
  private loggedInWindow = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly limits: RefusalLogLimits;

  constructor(
    private readonly sink: DecisionSink | undefined,
    limits: Partial<RefusalLogLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  note(r: Refusal): void {
    if (!this.sink) return;
    let key = `${r.reason} ${r.peer}`;
    if (!this.window.has(key) && this.window.size >= this.limits.keys) key = `${r.reason} *`;
    let k = this.window.get(key);
    if (!k) {
      k = { logged: 0, suppressed: 0, sample: key.endsWith(" *") ? { ...r, peer: "*" } : r };
      this.window.set(key, k);
    }
    if (k.logged < this.limits.perKey && this.loggedInWindow < this.limits.total && !key.endsWith(" *")) {
      k.logged++;
      this.loggedInWindow++;
      this.write(r, r.message);
    } else {
      k.suppressed++;
    }
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.limits.windowMs);
      this.timer.unref();
    }
  }

  /** Ends the window: a summary line for each reason and address with refusals not written one by one. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const seconds = Math.round(this.limits.windowMs / 1000);
    for (const k of this.window.values()) {
      if (k.suppressed === 0) continue;
      const from = k.sample.peer === "*" ? "from other addresses" : `from ${k.sample.peer}`;
      this.write(k.sample, `${k.suppressed} more ${k.sample.reason} refusals ${from} within ${seconds} s, not logged one by one`);
    }
    this.window.clear();
    this.loggedInWindow = 0;
  }

  private write(r: Refusal, message: string): void {
    this.sink?.write({
      session: `refused:${r.peer}`,
      route: r.route?.name ?? "",
      transport: r.transport,
      protocol: r.route?.protocol ?? "mcp",
      direction: "outbound",
      kind: "refused",
      id: null,
      method: null,
      tool: null,
      agent: r.agent,
      decision: "deny",
      mode: "enforce",
      rules: [],
      reasonCode: [r.reason],
      message,
      evalUs: 0,
      digest: null,
      peer: r.peer,
    });
  }
}
