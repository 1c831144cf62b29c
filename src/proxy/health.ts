import type { StoreStatus } from "../store/redis.js";

/** What `/healthz` and `/readyz` report on (docs/scale.md, Decision logs, health and rollout). */
export interface HealthSource {
  version: string;
  /** This replica's id (the one in its log records and log file name). */
  replica: string;
  /** The rules in force now: a hot reload shows at the next probe. */
  rules: () => { name: string; hash: string; rules: readonly unknown[] };
  /** The shared store, when one is configured. */
  store: { readonly state: StoreStatus; readonly onUnavailable: "closed" | "local" } | null;
  /** True from the first stop signal on: no new traffic should come here. */
  stopping: () => boolean;
}

export interface HealthAnswer {
  status: 200 | 503;
  body: Record<string, unknown>;
}

/** `/healthz`: 200 while the process lives (liveness), with what a rollout or an outage is watched by. */
export function liveness(src: HealthSource): HealthAnswer {
  return { status: 200, body: { status: "ok", ...facts(src) } };
}

/**
 * `/readyz`: 503 while stopping, and while the store is not up when messages that need it are refused
 * (`onUnavailable: closed`), so a load balancer sends traffic to the replicas that can judge it.
 */
export function readiness(src: HealthSource, routes: string[]): HealthAnswer {
  const store = src.store;
  const s = store?.state;
  const reason = src.stopping() ? "stopping" : s && store.onUnavailable === "closed" && s.state !== "up" ? `the shared store (Redis) is ${s.state}${s.lastError ? `: ${s.lastError}` : ""}` : null;
  return reason ? { status: 503, body: { status: "not ready", reason, ...facts(src) } } : { status: 200, body: { status: "ready", routes, ...facts(src) } };
}

function facts(src: HealthSource): Record<string, unknown> {
  const { name, hash, rules } = src.rules();
  return { version: src.version, replica: src.replica, ruleset: { name, hash, rules: rules.length }, store: src.store ? storeFacts(src.store.state, src.store.onUnavailable) : null };
}

/** The store's state without its URL: the probes answer anyone who can reach the port. */
function storeFacts(s: StoreStatus, onUnavailable: string): Record<string, unknown> {
  return {
    backend: s.backend,
    state: s.state,
    since: s.since,
    ...(s.lastError ? { lastError: s.lastError } : {}),
    reconnects: s.reconnects,
    onUnavailable,
    resets: s.resets,
    ...(s.lastReset ? { lastReset: s.lastReset } : {}),
    ...(s.limitsHeldUntil ? { limitsHeldUntil: s.limitsHeldUntil } : {}),
  };
}
