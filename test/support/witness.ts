import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { digest } from "../../src/proxy/decision-line.js";
import { CLI, ROOT, tempDir } from "../helpers.js";
import { stopChild, waitFor } from "./servers.js";

/*
 * The witness harness of the invariant suite (docs/invariant.md): real upstreams that record every delivery they
 * receive, a real `guardwire serve` in front of them, and the check that ties what the witnesses received to the
 * decision log.
 */

export const WITNESS = join(ROOT, "test", "support", "witness.mjs");
export const WITNESS_RULES = join(ROOT, "test", "support", "witness-rules.yaml");
export const KEYS = { alice: "k-alice-0123456789abcdef", bob: "k-bob-0123456789abcdef00" } as const;
/** Small, so oversize frames cost little to generate. */
export const MAX_FRAME_BYTES = 65_536;

export type WitnessKind = "stdio" | "http" | "sse" | "ws" | "a2a";
export const ROUTES: Record<WitnessKind, string> = { stdio: "/mcp/stdio", http: "/mcp/http", sse: "/mcp/sse", ws: "/mcp/ws", a2a: "/a2a/echo" };

export interface Unjudged {
  witness: string;
  message: string;
}

/**
 * What the witnesses recorded (one JSONL file each) and the decision log, read as they grow, and the check of
 * invariant (a): every JSON-RPC message a witness received is accounted for by one log line that let it through.
 *
 * Correlation, as a multiset: an `allow` line (outbound) accounts for one received message with the same digest (the
 * log's digest is SHA-256 of the canonical JSON of the message as guardwire received it, which is what it forwards
 * when it allows). A `modify` line's digest is of the message before the rewrite, so a rewritten message is matched
 * by its id and method instead — the generators give every request a unique id (a nonce), which makes that pairing
 * exact. Each line accounts for one message at most, so a denied message that reached a witness finds no line (its
 * digest appears only on `deny` lines), and bytes that are not JSON never match. Batches count element by element.
 * Lines and deliveries are consumed as they are paired, so one property run's failure does not leak into the next.
 */
export class Records {
  private readonly seen = new Map<string, number>();
  private pending: { w: string; value: unknown; text: string }[] = [];
  private readonly allowed = new Map<string, number>();
  private readonly modified = new Map<string, number>();
  /** Every log line read so far, for the answer checks. */
  readonly log: Record<string, unknown>[] = [];
  private readonly counts = new Map<string, number>();

  constructor(
    readonly witnessFiles: string[],
    readonly logFile: string,
  ) {}

  /** Reads what was appended, then pairs every delivery it can with a log line; returns those still unpaired. */
  account(): Unjudged[] {
    for (const f of this.witnessFiles) for (const line of this.newLines(f)) this.addDelivery(JSON.parse(line) as Delivery);
    for (const line of this.newLines(this.logFile)) {
      const l = JSON.parse(line) as Record<string, unknown>;
      this.log.push(l);
      if (l.direction !== "outbound") continue;
      if (l.decision === "allow" && typeof l.digest === "string") bump(this.allowed, l.digest);
      else if (l.decision === "modify") bump(this.modified, idMethod(l.id, l.method));
    }
    this.pending = this.pending.filter((d) => !this.pair(d.value));
    return this.pending.map((d) => ({ witness: d.w, message: d.text }));
  }

  /**
   * Waits until every delivery so far is paired (a line is written before its message is forwarded; a delivery read a moment before its line is read waits), or gives up after `ms`;
   * returns what stayed unpaired and forgets it, so the next run starts clean.
   */
  async settle(ms = 3000): Promise<Unjudged[]> {
    const until = Date.now() + ms;
    for (;;) {
      const missing = this.account();
      if (missing.length === 0 || Date.now() > until) {
        this.pending = [];
        return missing;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Deliveries read so far, from every witness or from one kind. */
  get deliveries(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }

  deliveriesOf(w: string): number {
    return this.counts.get(w) ?? 0;
  }

  private addDelivery(d: Delivery): void {
    bump(this.counts, d.w);
    let v: unknown;
    try {
      v = JSON.parse(d.text);
    } catch {
      this.pending.push({ w: d.w, value: NOT_JSON, text: `not JSON: ${cut(d.text)}` });
      return;
    }
    for (const value of Array.isArray(v) && v.length > 0 ? (v as unknown[]) : [v]) this.pending.push({ w: d.w, value, text: cut(JSON.stringify(value)) });
  }

  private pair(v: unknown): boolean {
    if (v === NOT_JSON) return false;
    if (take(this.allowed, digest(v))) return true;
    const m = v as { id?: unknown; method?: unknown } | null;
    return m !== null && typeof m === "object" && take(this.modified, idMethod(m.id ?? null, m.method ?? null));
  }

  /** Complete lines appended since the last read (a line still being written waits for the next read). */
  private newLines(file: string): string[] {
    if (!existsSync(file)) return [];
    const buf = readFileSync(file);
    const from = this.seen.get(file) ?? 0;
    const end = buf.lastIndexOf(0x0a) + 1;
    if (end <= from) return [];
    this.seen.set(file, end);
    return buf
      .subarray(from, end)
      .toString("utf8")
      .split("\n")
      .filter((l) => l.length > 0);
  }
}

/** One delivery a witness received: a POST body, a stdin line or a WebSocket frame, as raw text. */
interface Delivery {
  w: string;
  text: string;
}

const NOT_JSON = Symbol("not JSON");
const idMethod = (id: unknown, method: unknown) => JSON.stringify([id, method]);
const cut = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…(${s.length} chars)` : s);

function bump(m: Map<string, number>, k: string): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}

function take(m: Map<string, number>, k: string): boolean {
  const n = m.get(k) ?? 0;
  if (n === 0) return false;
  m.set(k, n - 1);
  return true;
}

interface Witness {
  kind: WitnessKind;
  port: number;
  child: ChildProcess;
}

async function startWitness(kind: Exclude<WitnessKind, "stdio">, file: string): Promise<Witness> {
  const child = spawn(process.execPath, [WITNESS, kind], { env: { ...process.env, WITNESS_FILE: file }, stdio: ["ignore", "pipe", "pipe"] });
  const { match } = await waitFor(child, /listening (\d+)/);
  return { kind, port: Number(match[1]), child };
}

export interface Guard {
  base: string;
  port: number;
  records: Records;
  stop(): Promise<void>;
}

/**
 * One witness of each kind and one `guardwire serve` (the built CLI) with a route to each, two agent keys and the
 * witness rules. The stdio route starts a witness child per session; they share one record file.
 */
export async function startGuard(): Promise<Guard> {
  const dir = tempDir("guardwire-invariant-");
  const file = (k: WitnessKind) => join(dir, `witness-${k}.jsonl`);
  const kinds = ["http", "sse", "ws", "a2a"] as const;
  const witnesses = await Promise.all(kinds.map((k) => startWitness(k, file(k))));
  const port = (k: WitnessKind) => witnesses.find((w) => w.kind === k)?.port ?? 0;
  const log = join(dir, "decisions.ndjson");
  const config = join(dir, "guardwire.yaml");
  const q = JSON.stringify;
  writeFileSync(
    config,
    [
      "listen: { host: 127.0.0.1, port: 0 }",
      `rules: ${q(WITNESS_RULES)}`,
      `log: ${q(log)}`,
      `maxFrameBytes: ${MAX_FRAME_BYTES}`,
      `agents: [{ id: alice, key: ${KEYS.alice} }, { id: bob, key: ${KEYS.bob} }]`,
      "routes:",
      `  - { name: stdio, path: ${ROUTES.stdio}, mcp: { command: ${q(process.execPath)}, args: [${q(WITNESS)}, stdio], env: { WITNESS_FILE: ${q(file("stdio"))} } } }`,
      `  - { name: http, path: ${ROUTES.http}, mcp: { url: "http://127.0.0.1:${port("http")}/mcp", timeoutMs: 10000 } }`,
      `  - { name: sse, path: ${ROUTES.sse}, mcp: { sse: "http://127.0.0.1:${port("sse")}/sse" } }`,
      `  - { name: ws, path: ${ROUTES.ws}, mcp: { ws: "ws://127.0.0.1:${port("ws")}/" } }`,
      `  - { name: a2a, path: ${ROUTES.a2a}, a2a: { url: "http://127.0.0.1:${port("a2a")}", timeoutMs: 10000 } }`,
    ].join("\n"),
  );
  const serve = spawn(process.execPath, [CLI, "serve", "--config", config, "--pins", join(dir, "pins.json"), "--no-watch"], { stdio: ["ignore", "pipe", "pipe"] });
  const { match } = await waitFor(serve, /serving (http:\/\/\S+)/);
  const base = match[1] as string;
  return {
    base,
    port: Number(new URL(base).port),
    records: new Records([...kinds, "stdio" as const].map(file), log),
    async stop() {
      await stopChild(serve);
      await Promise.all(witnesses.map((w) => stopChild(w.child)));
    },
  };
}

/** One guard for the tests of a describe block: started before them, stopped after them. */
export function useGuard(): () => Guard {
  let g: Guard | undefined;
  beforeAll(async () => {
    g = await startGuard();
  }, 60_000);
  afterAll(async () => {
    await g?.stop();
  });
  return () => {
    if (!g) throw new Error("the guard did not start");
    return g;
  };
}

/**
 * The seed of a property's runs, printed so a failure can be replayed: `INVARIANT_SEED=<seed>` runs the same inputs,
 * and `INVARIANT_PATH=<path>` (from fast-check's report) goes straight to the counterexample.
 */
export function replayOf(name: string): { seed: number; path?: string } {
  const fromEnv = Number(process.env.INVARIANT_SEED);
  const seed = process.env.INVARIANT_SEED && Number.isInteger(fromEnv) ? fromEnv : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  process.stderr.write(`invariant: ${name} seed=${seed} (replay: INVARIANT_SEED=${seed} npx vitest run test/invariant)\n`);
  return process.env.INVARIANT_PATH ? { seed, path: process.env.INVARIANT_PATH } : { seed };
}
