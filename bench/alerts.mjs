// The cost of raising an alert on the traffic's path (AlertDispatcher.raise): queued, and dropped by a full queue.
// `npm run build && node bench/alerts.mjs`. Posts go to a closed loopback port and fail; only raise() is timed.
import { alertsSchema } from "../dist/alerts/config.js";
import { AlertDispatcher } from "../dist/alerts/dispatcher.js";

const event = {
  severity: "high", rules: ["r1"], decidedBy: ["r1"], reasonCode: ["X"], decision: "deny", mode: "enforce", message: "m",
  route: "r", session: "s-1", transport: "stdio", protocol: "mcp", agent: null, server: null, direction: "outbound",
  kind: "request", method: "tools/call", tool: "echo", messageId: 1, digest: "d",
};
const N = 100_000;
const ROUNDS = 7;

async function round(queue) {
  const d = new AlertDispatcher(alertsSchema.parse({ webhooks: [{ url: "http://127.0.0.1:9/hook" }], queue, maxAttempts: 1, flushMs: 0 }), { note: () => {} });
  const t = performance.now();
  for (let i = 0; i < N; i++) d.raise(event);
  const us = ((performance.now() - t) * 1000) / N;
  await d.close();
  return us;
}

const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [label, queue] of [["queued", N * 2], ["dropped (queue full)", 1]]) {
  const runs = [];
  for (let r = 0; r < ROUNDS; r++) runs.push(await round(queue));
  console.log(`${label.padEnd(22)} median ${median(runs).toFixed(2)} µs per raise (${ROUNDS} rounds of ${N})`);
}
