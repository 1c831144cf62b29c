// The blind evaluation: every case of test/fixtures/blind/ run through a real guardwire, black box.
//
//   node bench/blind.mjs                 run every case (guardwire must be built: npm run build)
//   node bench/blind.mjs --check         only read and validate the case files, print the counts
//   node bench/blind.mjs --direct        no guardwire: the client talks to the replaying server/agent directly. Every
//                                        case must come out unchanged; this checks the harness and the cases, and
//                                        says nothing about detection
//   --only id,id  --class name  --jobs N (parallel MCP cases, default 2)  --verbose (each case as it ends)
//   --minutes N (the whole run gives up after N minutes, default 20)
//   --out file.json (default bench/results-blind.json; with --only/--class, *.partial.json)  --cases dir  --keep
//   (keep the work directory: each case's decision log, pins, server record)
//
// MCP cases: one `guardwire wrap` per case (default rules, no --rules, a fresh log and pins file) in front of
// test/fixtures/servers/replay-mcp-server.mjs, driven with raw JSON-RPC lines on its stdin/stdout: initialize,
// notifications/initialized, tools/list, the case's other lists, then its call (answering a sampling request the
// server sends meanwhile). One process per case, because the guardian's session state (flow labels, tool pins) must
// not carry from one case to the next.
// A2A cases: one `guardwire serve` whose config has a route and an agent key per case (a guardian session per caller,
// so per case), in front of test/fixtures/servers/replay-a2a-agent.mjs (@a2a-js/sdk 0.3.14); the caller speaks raw
// JSON-RPC over fetch: it reads the card through the route, then sends message/send or message/stream.
//
// The outcome is read only from what crossed the wire: both ends record every line/body; a message the destination
// received byte for byte is "unchanged", a different one "cut", one that never arrived while the sender got an error,
// an isError result or a -32050 instead is "blocked". Exit 0 always (a measurement), 2 on a harness error.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { parse as parseYaml } from "yaml";
import { normalizeCase, stringsOf, targetContent } from "./blind-cases.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name, dflt) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : dflt;
};
const casesDir = option("--cases", join(root, "test", "fixtures", "blind"));
const CHECK = flag("--check");
const DIRECT = flag("--direct");
const VERBOSE = flag("--verbose");
const JOBS = Math.max(1, Number(option("--jobs", 2)));
const ONLY = option("--only") ? new Set(option("--only").split(",")) : null;
const ONLY_CLASS = option("--class");
const OUT = option("--out", join(root, "bench", "results-blind.json"));
const MESSAGE_TIMEOUT_MS = 10_000;
/** The whole run gives up after this many minutes (`--minutes N`; longer on a machine shared with other work). */
const MINUTES = Math.max(1, Number(option("--minutes", 20)));

class HarnessError extends Error {}
const children = new Set();
const killAll = () => {
  for (const c of children) {
    try {
      c.kill("SIGKILL");
    } catch {
      // gone already
    }
  }
};
process.on("exit", killAll);
const overall = setTimeout(() => {
  console.error(`blind: still running after ${MINUTES} minutes; giving up (--minutes N allows longer)`);
  process.exit(2);
}, MINUTES * 60_000);
overall.unref();

// ---------------------------------------------------------------------------------------------------------------
// Reading and validating the cases

const CLASSES = ["prompt_injection", "tool_poisoning", "exfiltration", "dangerous_command", "secrets", "sensitive_path", "pii", "sampling"];
const MCP_TARGETS = ["initialize", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "call", "result", "sampling"];
const A2A_TARGETS = ["card", "send", "reply"];

function loadCases() {
  const problems = [];
  const cases = [];
  const files = readdirSync(casesDir).filter((f) => /\.(ya?ml|json)$/.test(f)).sort();
  for (const f of files) {
    const text = readFileSync(join(casesDir, f), "utf8");
    let doc;
    try {
      doc = f.endsWith(".json") ? JSON.parse(text) : parseYaml(text, { maxAliasCount: -1 });
    } catch (e) {
      problems.push(`${f}: cannot parse: ${e.message}`);
      continue;
    }
    const list = Array.isArray(doc) ? doc : doc?.cases;
    if (!Array.isArray(list)) {
      problems.push(`${f}: expected a list of cases or {cases: [...]}`);
      continue;
    }
    const defaults = Array.isArray(doc) ? {} : (doc.defaults ?? {});
    for (const raw of list) {
      const c = normalizeCase(raw, defaults, doc.class, f);
      const p = validate(c);
      if (p.length) problems.push(...p.map((x) => `${f}: ${c.id ?? "(no id)"}: ${x}`));
      cases.push(c);
    }
  }
  const seen = new Set();
  for (const c of cases) {
    if (seen.has(c.id)) problems.push(`${c.file}: duplicate id ${c.id}`);
    seen.add(c.id);
  }
  return { cases, problems };
}

function validate(c) {
  const p = [];
  if (typeof c.id !== "string" || !/^[a-z0-9][a-z0-9-]*$/.test(c.id)) p.push("id: lower-case letters, digits and dashes");
  if (!CLASSES.includes(c.class)) p.push(`class: one of ${CLASSES.join(", ")}`);
  if (c.label !== "attack" && c.label !== "benign") p.push("label: attack or benign");
  if (c.protocol !== "mcp" && c.protocol !== "a2a") p.push("protocol: mcp or a2a");
  if (typeof c.why !== "string" || !c.why.trim()) p.push("why: one line");
  if (c.label === "benign" && c.expect !== "unchanged") p.push("expect: a benign case expects unchanged");
  if (c.label === "attack" && !["blocked", "cut", "either"].includes(c.expect)) p.push("expect: blocked, cut or either");
  const targets = c.protocol === "a2a" ? A2A_TARGETS : MCP_TARGETS;
  if (c.label === "attack") {
    if (!Array.isArray(c.target) || c.target.length === 0) p.push("target: the message(s) carrying the attack");
    for (const t of c.target ?? []) if (!targets.includes(t)) p.push(`target: ${t} is not one of ${targets.join(", ")}`);
  }
  if (c.harm !== undefined && (!Array.isArray(c.harm) || c.harm.some((h) => typeof h !== "string" || !h))) p.push("harm: strings");
  else if (c.harm && c.label === "attack") {
    // Each harm marker must be in what the target messages carry, or a cut could never be told from a partial one.
    const carried = stringsOf((c.target ?? []).map((t) => targetContent(c, t)));
    for (const h of c.harm) if (!carried.some((s) => s.includes(h))) p.push(`harm marker not found in the target message(s): ${JSON.stringify(h)}`);
  }
  if (c.protocol === "mcp") {
    const s = c.server ?? {};
    for (const t of c.target ?? []) {
      if (t === "initialize" && s.instructions === undefined) p.push("target initialize without server.instructions");
      if (t === "prompts/list" && !s.prompts) p.push("target prompts/list without server.prompts");
      if (t === "resources/list" && !s.resources) p.push("target resources/list without server.resources");
      if (t === "resources/templates/list" && !s.resourceTemplates) p.push("target resources/templates/list without server.resourceTemplates");
      if ((t === "call" || t === "result") && !c.call) p.push(`target ${t} without call`);
      if (t === "sampling" && !c.sampling) p.push("target sampling without sampling");
    }
    if (c.sampling && !c.call) p.push("sampling needs a call during which it is sent");
    if (c.call?.method === "tools/call" && s.tools && !s.tools.some((t) => t.name === c.call.params.name)) p.push(`tool ${c.call.params.name} is not in server.tools`);
  } else {
    if (!c.send.parts?.length) p.push("send.parts: the message the caller sends");
    if (!["message/send", "message/stream"].includes(c.send.method)) p.push("send.method: message/send or message/stream");
    const r = c.reply ?? {};
    if ([r.message, r.task, r.events].filter(Boolean).length !== 1) p.push("reply: one of message, task, events");
    if (r.events && c.send.method !== "message/stream") p.push("reply.events needs send.method message/stream");
  }
  return p;
}

// ---------------------------------------------------------------------------------------------------------------
// Comparing what was sent with what arrived

const parse = (line) => {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
};

/**
 * One message's fate: `sent` the line the sender wrote, `got` the line the destination received (undefined: never),
 * `reply` what the sender got back in its place when it never arrived (for a request), `harm` the markers.
 */
function judge({ sent, got, reply, harm, isResponse }) {
  if (sent === undefined) return { outcome: "not-sent" };
  if (got === undefined) {
    const r = reply === undefined ? undefined : parse(reply);
    if (r === undefined) return { outcome: "blocked", note: "no answer" };
    if (r.error) return { outcome: "blocked", note: `error ${r.error.code}` };
    if (r.result?.isError) return { outcome: "blocked", note: "isError result" };
    return { outcome: "blocked", note: "answered without forwarding" };
  }
  if (got === sent) return { outcome: "unchanged" };
  const a = parse(sent);
  const b = parse(got);
  if (a !== undefined && isDeepStrictEqual(a, b)) return { outcome: "unchanged", note: "reframed (same JSON)" };
  if (isResponse && b && !a?.error && b.error) return { outcome: "blocked", note: `error ${b.error.code}` };
  if (isResponse && b?.result?.isError && !a?.result?.isError) return { outcome: "blocked", note: "isError result" };
  const survived = (harm ?? []).filter((h) => stringsOf(b).some((s) => s.includes(h)));
  return { outcome: "cut", survived };
}

// ---------------------------------------------------------------------------------------------------------------
// MCP: one wrap (or, with --direct, the bare server) per case

const replayServer = join(root, "test", "fixtures", "servers", "replay-mcp-server.mjs");
const cli = join(root, "dist", "cli", "main.js");

async function runMcp(c, work) {
  const dir = join(work, c.id);
  mkdirSync(dir, { recursive: true });
  const caseFile = join(dir, "case.json");
  const recordFile = join(dir, "server.ndjson");
  writeFileSync(caseFile, JSON.stringify(c));
  writeFileSync(recordFile, "");
  const env = { ...process.env, REPLAY_CASE: caseFile, REPLAY_RECORD: recordFile };
  const args = DIRECT
    ? [replayServer]
    : [cli, "wrap", "--log", join(dir, "decisions.ndjson"), "--pins", join(dir, "pins.json"), "--no-watch", "--name", "blind", "--", process.execPath, replayServer];
  const child = spawn(process.execPath, args, { env, stdio: ["pipe", "pipe", "pipe"], cwd: dir });
  children.add(child);
  let stderr = "";
  child.stderr.on("data", (b) => (stderr += b.toString()));
  let exited = false;
  child.once("exit", () => (exited = true));

  const received = []; // lines the client read
  const asked = []; // elicitation requests the client got (guardwire asking for an approval)
  const sentByClient = new Map(); // id → line
  const waiters = new Map();
  const samplingReply = c.samplingReply ?? { role: "assistant", content: { type: "text", text: "Done." }, model: "replay-model", stopReason: "endTurn" };
  const write = (m) => {
    const line = JSON.stringify(m);
    if (m.id !== undefined) sentByClient.set(`${m.method ? "req" : "res"}:${JSON.stringify(m.id)}`, line);
    child.stdin.write(line + "\n");
  };
  const rl = createInterface({ input: child.stdout, crlfDelay: Infinity });
  rl.on("line", (line) => {
    received.push(line);
    const m = parse(line);
    if (!m) return;
    if (m.method === "sampling/createMessage" && m.id !== undefined) {
      write({ jsonrpc: "2.0", id: m.id, result: samplingReply });
      return;
    }
    if (m.method === "elicitation/create" && m.id !== undefined) {
      // guardwire asking the user (an approval): the harness's user declines, and the case says it was asked.
      asked.push(m.params?.message ?? "");
      write({ jsonrpc: "2.0", id: m.id, result: { action: "decline" } });
      return;
    }
    if (m.method === "roots/list" && m.id !== undefined) {
      write({ jsonrpc: "2.0", id: m.id, result: { roots: [] } });
      return;
    }
    if (m.method === "ping" && m.id !== undefined) {
      write({ jsonrpc: "2.0", id: m.id, result: {} });
      return;
    }
    if (m.method === undefined && waiters.has(JSON.stringify(m.id))) {
      const w = waiters.get(JSON.stringify(m.id));
      waiters.delete(JSON.stringify(m.id));
      w(line);
    }
  });
  const request = (id, method, params, timeout = MESSAGE_TIMEOUT_MS) =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiters.delete(JSON.stringify(id));
        resolve(undefined);
      }, timeout);
      waiters.set(JSON.stringify(id), (line) => {
        clearTimeout(timer);
        resolve(line);
      });
      write({ jsonrpc: "2.0", id, method, ...(params !== undefined ? { params } : {}) });
    });

  const answers = {};
  const t0 = performance.now();
  answers.initialize = await request(1, "initialize", {
    protocolVersion: "2025-06-18",
    capabilities: { sampling: {}, roots: { listChanged: false }, elicitation: {} },
    clientInfo: { name: "blind-bench-agent", version: "1.0.0" },
  }, 30_000); // the first answer also waits for guardwire and the server to start
  if (answers.initialize === undefined && exited) throw new HarnessError(`${c.id}: the ${DIRECT ? "server" : "wrap"} exited at start:\n${stderr}`);
  write({ jsonrpc: "2.0", method: "notifications/initialized" });
  const lists = [
    [2, "tools/list", true],
    [3, "prompts/list", !!c.server?.prompts],
    [4, "resources/list", !!c.server?.resources],
    [5, "resources/templates/list", !!c.server?.resourceTemplates],
  ];
  for (const [id, method, wanted] of lists) if (wanted) answers[method] = await request(id, method, {});
  if (c.call) answers.call = await request(10, c.call.method, c.call.params);
  const ms = performance.now() - t0;
  // Let the last lines reach the record, then close the session.
  await new Promise((r) => setTimeout(r, 30));
  child.stdin.end();
  await Promise.race([new Promise((r) => child.once("exit", r)), new Promise((r) => setTimeout(r, 3000))]);
  if (!exited) child.kill("SIGKILL");
  children.delete(child);

  writeFileSync(join(dir, "client.ndjson"), received.map((line) => JSON.stringify({ dir: "in", line })).join("\n") + "\n");
  const serverLines = readFileSync(recordFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const serverIn = new Map();
  const serverOut = new Map();
  for (const { dir: d, line } of serverLines) {
    const m = parse(line);
    if (!m || m.id === undefined) continue;
    const key = `${m.method ? "req" : "res"}:${JSON.stringify(m.id)}`;
    (d === "in" ? serverIn : serverOut).set(key, line);
  }
  const clientGot = new Map();
  for (const line of received) {
    const m = parse(line);
    if (!m || m.id === undefined) continue;
    clientGot.set(`${m.method ? "req" : "res"}:${JSON.stringify(m.id)}`, line);
  }

  // Every message of the exchange, each judged.
  const slots = {};
  const ids = { initialize: 1, "tools/list": 2, "prompts/list": 3, "resources/list": 4, "resources/templates/list": 5 };
  for (const [name, id] of Object.entries(ids)) {
    if (answers[name] === undefined && !sentByClient.has(`req:${id}`)) continue;
    const req = judge({ sent: sentByClient.get(`req:${id}`), got: serverIn.get(`req:${id}`), reply: clientGot.get(`res:${id}`) });
    if (req.outcome !== "unchanged") slots[`${name} (request)`] = req;
    else slots[name] = judge({ sent: serverOut.get(`res:${id}`), got: clientGot.get(`res:${id}`), isResponse: true, harm: c.harm });
  }
  if (c.call) {
    slots.call = judge({ sent: sentByClient.get("req:10"), got: serverIn.get("req:10"), reply: clientGot.get("res:10"), harm: c.harm });
    if (slots.call.outcome !== "blocked") {
      if (c.sampling) {
        const sid = `req:${JSON.stringify("srv-sampling-1")}`;
        slots.sampling = judge({ sent: serverOut.get(sid), got: clientGot.get(sid), reply: serverIn.get(`res:${JSON.stringify("srv-sampling-1")}`), harm: c.harm });
        if (slots.sampling.outcome !== "blocked")
          slots["sampling answer"] = judge({ sent: sentByClient.get(`res:${JSON.stringify("srv-sampling-1")}`), got: serverIn.get(`res:${JSON.stringify("srv-sampling-1")}`) });
      }
      slots.result = judge({ sent: serverOut.get("res:10"), got: clientGot.get("res:10"), isResponse: true, harm: c.harm });
    }
  }
  for (const [k, v] of Object.entries(slots)) if (v.outcome === "not-sent") delete slots[k];
  if (asked.length) for (const v of Object.values(slots)) v.note = `${v.note ? `${v.note}; ` : ""}guardwire asked the user (declined)`;
  return { slots, ms, asked, stderr: stderr.trim() ? stderr.trim().split("\n").slice(-3).join(" | ") : "" };
}

// ---------------------------------------------------------------------------------------------------------------
// A2A: one serve (or, with --direct, the bare agent) for all cases

const replayAgent = join(root, "test", "fixtures", "servers", "replay-a2a-agent.mjs");

function startNode(args, env, ready, what) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  let out = "";
  return new Promise((resolve, reject) => {
    const on = (b) => {
      out += b.toString();
      const m = ready.exec(out);
      if (m) resolve({ child, match: m });
    };
    child.stdout.on("data", on);
    child.stderr.on("data", on);
    child.once("exit", (code) => reject(new HarnessError(`${what} exited ${code} at start:\n${out}`)));
  });
}

const keyOf = (i) => `blind-key-${String(i).padStart(4, "0")}-${"k".repeat(16)}`;
const routeName = (c) => `b-${c.id}`;

async function startA2a(cases, work) {
  const file = join(work, "a2a-cases.json");
  writeFileSync(file, JSON.stringify(cases));
  const agent = await startNode([replayAgent], { REPLAY_CASES: file, PORT: "0" }, /listening (\d+)/, "the replay A2A agent");
  const agentBase = `http://127.0.0.1:${agent.match[1]}`;
  if (DIRECT) return { agentBase, urlOf: (c) => `${agentBase}/c/${c.id}`, rpcOf: (c) => `${agentBase}/c/${c.id}/a2a/jsonrpc`, headersOf: () => ({}) };
  const env = {};
  const lines = ["listen: { host: 127.0.0.1, port: 0 }", `log: ${JSON.stringify(join(work, "a2a-decisions.ndjson"))}`, "agents:"];
  cases.forEach((c, i) => {
    env[`BLIND_KEY_${i}`] = keyOf(i);
    lines.push(`  - { id: ${JSON.stringify(`case-${c.id}`)}, key: "\${BLIND_KEY_${i}}" }`);
  });
  lines.push("routes:");
  for (const c of cases) lines.push(`  - { name: ${JSON.stringify(routeName(c))}, path: "/a2a/${c.id}", a2a: { url: "${agentBase}/c/${c.id}" } }`);
  const config = join(work, "serve.yaml");
  writeFileSync(config, lines.join("\n") + "\n");
  const serve = await startNode([cli, "serve", "--config", config, "--pins", join(work, "a2a-pins.json"), "--no-watch"], env, /serving (http:\/\/\S+)/, "guardwire serve");
  const base = serve.match[1].replace(/[,)]+$/, "");
  const index = new Map(cases.map((c, i) => [c.id, i]));
  return {
    agentBase,
    urlOf: (c) => `${base}/a2a/${c.id}`,
    rpcOf: (c) => `${base}/a2a/${c.id}/`,
    headersOf: (c) => ({ authorization: `Bearer ${keyOf(index.get(c.id))}` }),
  };
}

/** The data lines of an SSE body, one JSON text per event. */
function sseEvents(body) {
  const events = [];
  for (const block of body.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).replace(/^ /, ""));
    if (data.length) events.push(data.join("\n"));
  }
  return events;
}

const CARD_TRANSPORT_FIELDS = ["url", "additionalInterfaces", "supportedInterfaces", "preferredTransport", "signatures"];
const cardContent = (card) => card && Object.fromEntries(Object.entries(card).filter(([k]) => !CARD_TRANSPORT_FIELDS.includes(k)));

async function fetchText(url, init) {
  const ctl = AbortSignal.timeout(MESSAGE_TIMEOUT_MS);
  try {
    const res = await fetch(url, { ...init, signal: ctl });
    return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
  } catch (e) {
    return { status: 0, error: String(e?.message ?? e), body: "" };
  }
}

async function runA2a(c, a2a, work) {
  const t0 = performance.now();
  const headers = a2a.headersOf(c);
  const slots = {};
  // 1. The card, as a client reads it first.
  const card = await fetchText(`${a2a.urlOf(c)}/.well-known/agent-card.json`, { headers });
  // 2. The message.
  const stream = c.send.method === "message/stream";
  const message = { kind: "message", messageId: `blind-${c.id}-1`, role: "user", parts: c.send.parts, ...(c.send.metadata ? { metadata: c.send.metadata } : {}) };
  if (c.send.contextId) message.contextId = c.send.contextId;
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: c.send.method, params: { message, ...(c.send.configuration ? { configuration: c.send.configuration } : {}) } });
  const res = await fetchText(a2a.rpcOf(c), {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", accept: stream ? "text/event-stream, application/json" : "application/json, text/event-stream" },
    body,
  });
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 20));
  const rec = await (await fetch(`${a2a.agentBase}/__record/${c.id}`)).json();
  // What crossed both ends, for a look with --keep.
  writeFileSync(join(work, `${c.id}.a2a.json`), JSON.stringify({ callerSent: body, callerGotCard: card, callerGot: res, agentRecord: rec }, null, 2));

  // The card: its content (not the URLs a proxy must rewrite) as the agent served it and as the caller got it.
  const served = rec.cards.length ? parse(rec.cards[rec.cards.length - 1]) : undefined;
  if (card.status !== 200 || parse(card.body) === undefined) slots.card = { outcome: served ? "blocked" : "blocked", note: `HTTP ${card.status}` };
  else if (!served) slots.card = { outcome: "blocked", note: "card not fetched from agent" };
  else {
    const a = cardContent(served);
    const b = cardContent(parse(card.body));
    slots.card = isDeepStrictEqual(a, b) ? { outcome: "unchanged" } : { outcome: "cut", survived: (c.harm ?? []).filter((h) => stringsOf(b).some((s) => s.includes(h))) };
  }
  // The request.
  const got = rec.requests.find((r) => parse(r.body)?.params?.message?.messageId === message.messageId);
  const callerGot = res.status === 0 ? undefined : stream && /event-stream/.test(res.type ?? "") ? sseEvents(res.body) : [res.body];
  slots.send = judge({ sent: body, got: got && withCallerPushUrl(body, got.body), reply: callerGot?.[callerGot.length - 1], harm: c.harm });
  // The answer (the JSON result, or each event of the stream).
  if (got) {
    const agentSent = got.response === null ? undefined : /event-stream/.test(got.contentType ?? "") ? sseEvents(got.response) : [got.response];
    if (agentSent === undefined) slots.reply = { outcome: "not-sent" };
    else if (callerGot === undefined) slots.reply = { outcome: "blocked", note: `no answer (${res.error ?? res.status})` };
    else slots.reply = judgeSequence(agentSent, callerGot, c.harm);
  }
  for (const [k, v] of Object.entries(slots)) if (v.outcome === "not-sent") delete slots[k];
  return { slots, ms, stderr: "" };
}

/**
 * A send that registers a push webhook leaves for the agent with guardwire's callback (`<route>/push/<id>`) in place of
 * the caller's URL (docs/a2a.md, "Push notifications"): a transport rewrite like the card's URLs, not a judgement. What
 * the agent got is compared with the caller's URL put back, and only when the URL is that callback; any other change
 * still counts.
 */
function withCallerPushUrl(sentBody, gotBody) {
  const a = parse(sentBody)?.params?.configuration;
  const b = parse(gotBody);
  const bc = b?.params?.configuration;
  let changed = false;
  for (const key of ["pushNotificationConfig", "taskPushNotificationConfig"]) {
    const mine = a?.[key];
    const theirs = bc?.[key];
    if (typeof mine?.url === "string" && typeof theirs?.url === "string" && mine.url !== theirs.url && /\/push\/[^/?#]+$/.test(theirs.url)) {
      theirs.url = mine.url;
      changed = true;
    }
  }
  return changed ? JSON.stringify(b) : gotBody;
}

/** The agent's answer (one JSON body or the events of a stream) against what the caller got. */
function judgeSequence(sent, got, harm) {
  if (sent.length === got.length && sent.every((s, i) => s === got[i])) return { outcome: "unchanged" };
  const a = sent.map(parse);
  const b = got.map(parse);
  if (isDeepStrictEqual(a, b)) return { outcome: "unchanged", note: "reframed (same JSON)" };
  const errorAt = b.findIndex((x) => x?.error);
  if (errorAt >= 0 && !a.some((x) => x?.error)) {
    // An error in place of the answer, or a stream ended by one.
    const before = b.slice(0, errorAt);
    const survived = (harm ?? []).filter((h) => stringsOf(before).some((s) => s.includes(h)));
    if (errorAt === 0 || survived.length === 0) return { outcome: "blocked", note: `error ${b[errorAt].error.code} at event ${errorAt}/${a.length}` };
    return { outcome: "cut", note: `stream ended by error ${b[errorAt].error.code} at event ${errorAt}/${a.length}`, survived };
  }
  const survived = (harm ?? []).filter((h) => stringsOf(b).some((s) => s.includes(h)));
  return { outcome: "cut", note: sent.length !== got.length ? `${got.length}/${sent.length} events` : undefined, survived };
}

// ---------------------------------------------------------------------------------------------------------------
// Scoring

function score(c, r) {
  const slots = r.slots;
  const changed = Object.entries(slots).filter(([, v]) => v.outcome !== "unchanged");
  if (c.label === "benign") {
    return { verdict: changed.length ? "false-positive" : "ok", detail: changed.map(([k, v]) => `${k}: ${v.outcome}${v.note ? ` (${v.note})` : ""}`).join("; ") };
  }
  const onTarget = c.target.map((t) => [t, slots[t] ?? slots[`${t} (request)`]]).filter(([, v]) => v);
  const blocked = onTarget.filter(([, v]) => v.outcome === "blocked");
  const cut = onTarget.filter(([, v]) => v.outcome === "cut");
  const other = changed.filter(([k]) => !c.target.includes(k.replace(" (request)", "")));
  const detail = [...onTarget, ...other].map(([k, v]) => `${k}: ${v.outcome}${v.note ? ` (${v.note})` : ""}${v.survived?.length ? ` [harm survived: ${v.survived.join(", ")}]` : ""}`).join("; ");
  if (blocked.length) return { verdict: "blocked", detail };
  if (cut.length) {
    const leaky = cut.every(([, v]) => v.survived?.length);
    return { verdict: leaky ? "cut-partial" : "cut", detail };
  }
  if (onTarget.length === 0) return { verdict: "blocked", early: true, detail: `target never sent: an earlier message of the exchange was stopped; ${detail}` };
  return { verdict: "missed", detail };
}

// ---------------------------------------------------------------------------------------------------------------

async function pool(items, n, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

const pct = (a, b) => (b === 0 ? "—" : `${((100 * a) / b).toFixed(1)}%`);

async function main() {
  const { cases: all, problems } = loadCases();
  if (problems.length) {
    console.error(problems.join("\n"));
    throw new HarnessError(`${problems.length} problem(s) in the case files`);
  }
  const cases = all.filter((c) => (!ONLY || ONLY.has(c.id)) && (!ONLY_CLASS || c.class === ONLY_CLASS));
  const counts = {};
  for (const c of all) {
    const k = (counts[c.class] ??= { attack: 0, benign: 0, mcp: 0, a2a: 0 });
    k[c.label]++;
    k[c.protocol]++;
  }
  if (CHECK) {
    console.log(`${all.length} cases in ${relative(root, casesDir)}: ${all.filter((c) => c.label === "attack").length} attacks, ${all.filter((c) => c.label === "benign").length} benign`);
    console.log("class              attack  benign   mcp   a2a");
    for (const cl of CLASSES) {
      const k = counts[cl] ?? { attack: 0, benign: 0, mcp: 0, a2a: 0 };
      console.log(`${cl.padEnd(18)} ${String(k.attack).padStart(6)}  ${String(k.benign).padStart(6)}  ${String(k.mcp).padStart(4)}  ${String(k.a2a).padStart(4)}`);
    }
    return 0;
  }
  if (!DIRECT && !existsSync(cli)) throw new HarnessError("dist/cli/main.js is missing: run npm run build first");

  const work = mkdtempSync(join(tmpdir(), "guardwire-blind-"));
  const started = performance.now();
  const results = new Map();
  const mcp = cases.filter((c) => c.protocol === "mcp");
  const a2aCases = cases.filter((c) => c.protocol === "a2a");
  try {
    let done = 0;
    await pool(mcp, JOBS, async (c) => {
      const r = await runMcp(c, work);
      results.set(c.id, { ...r, ...score(c, r) });
      if (VERBOSE) console.error(`${String(++done).padStart(3)}/${mcp.length} ${c.id}: ${results.get(c.id).verdict} ${results.get(c.id).detail}`);
    });
    if (a2aCases.length) {
      const a2a = await startA2a(a2aCases, work);
      await pool(a2aCases, 4, async (c) => {
        const r = await runA2a(c, a2a, work);
        results.set(c.id, { ...r, ...score(c, r) });
        if (VERBOSE) console.error(`a2a ${c.id}: ${results.get(c.id).verdict} ${results.get(c.id).detail}`);
      });
    }
  } finally {
    killAll();
    if (!flag("--keep")) rmSync(work, { recursive: true, force: true });
    else console.error(`work directory kept: ${work}`);
  }
  const seconds = (performance.now() - started) / 1000;

  // Tables
  const per = {};
  const misses = [];
  const partial = [];
  const fps = [];
  const early = [];
  for (const c of cases) {
    const r = results.get(c.id);
    const k = (per[c.class] ??= { attacks: 0, blocked: 0, cut: 0, cutPartial: 0, missed: 0, benign: 0, falsePositives: 0 });
    if (c.label === "attack") {
      k.attacks++;
      if (r.verdict === "blocked") {
        k.blocked++;
        if (r.early) early.push({ id: c.id, class: c.class, protocol: c.protocol, detail: r.detail });
      } else if (r.verdict === "cut") k.cut++;
      else if (r.verdict === "cut-partial") {
        k.cutPartial++;
        partial.push({ id: c.id, class: c.class, protocol: c.protocol, detail: r.detail });
      } else {
        k.missed++;
        misses.push({ id: c.id, class: c.class, protocol: c.protocol, target: c.target, why: c.why });
      }
    } else {
      k.benign++;
      if (r.verdict === "false-positive") {
        k.falsePositives++;
        fps.push({ id: c.id, class: c.class, protocol: c.protocol, detail: r.detail, why: c.why });
      }
    }
  }
  const total = { attacks: 0, blocked: 0, cut: 0, cutPartial: 0, missed: 0, benign: 0, falsePositives: 0 };
  for (const k of Object.values(per)) for (const f of Object.keys(total)) total[f] += k[f];
  const row = (name, k) =>
    `${name.padEnd(18)} ${String(k.attacks).padStart(4)} ${String(k.blocked).padStart(7)} ${String(k.cut + k.cutPartial).padStart(4)} ${String(k.missed).padStart(6)}  ${pct(k.blocked + k.cut + k.cutPartial, k.attacks).padStart(7)}  ${pct(k.blocked + k.cut, k.attacks).padStart(7)}   ${String(k.benign).padStart(6)} ${String(k.falsePositives).padStart(3)}  ${pct(k.falsePositives, k.benign).padStart(6)}`;
  console.log(`\nblind evaluation${DIRECT ? " (DIRECT: no guardwire, harness check)" : ""}: ${cases.length} cases in ${seconds.toFixed(1)} s`);
  console.log("class            attacks blocked  cut missed   recall  recall*   benign  FP  FP rate");
  for (const cl of CLASSES) if (per[cl]) console.log(row(cl, per[cl]));
  console.log(row("overall", total));
  console.log("recall: blocked or cut / attacks; recall*: the same, not counting a cut that left a harm marker in place");
  if (misses.length) {
    console.log(`\nmissed (${misses.length}):`);
    for (const m of misses) console.log(`  ${m.id}  [${m.class}, ${m.protocol}, ${m.target.join("+")}]  ${m.why}`);
  }
  if (partial.length) {
    console.log(`\ncut, but a harm marker survived (${partial.length}):`);
    for (const m of partial) console.log(`  ${m.id}  ${m.detail}`);
  }
  if (early.length) {
    console.log(`\ncounted as blocked, but stopped before the message carrying the attack (${early.length}):`);
    for (const m of early) console.log(`  ${m.id}  ${m.detail}`);
  }
  if (fps.length) {
    console.log(`\nfalse positives (${fps.length}):`);
    for (const f of fps) console.log(`  ${f.id}  [${f.class}, ${f.protocol}]  ${f.detail}`);
  }
  let commit = null;
  try {
    commit = (await import("node:child_process")).execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  } catch {
    // not a checkout
  }
  const out = {
    date: new Date().toISOString(),
    node: process.version,
    commit,
    mode: DIRECT ? "direct (no guardwire)" : "guardwire wrap / serve, default rules",
    seconds: Number(seconds.toFixed(1)),
    cases: cases.length,
    perClass: Object.fromEntries(
      CLASSES.filter((cl) => per[cl]).map((cl) => [cl, { ...per[cl], recall: ratio(per[cl].blocked + per[cl].cut + per[cl].cutPartial, per[cl].attacks), recallStrict: ratio(per[cl].blocked + per[cl].cut, per[cl].attacks), falsePositiveRate: ratio(per[cl].falsePositives, per[cl].benign) }]),
    ),
    overall: { ...total, recall: ratio(total.blocked + total.cut + total.cutPartial, total.attacks), recallStrict: ratio(total.blocked + total.cut, total.attacks), falsePositiveRate: ratio(total.falsePositives, total.benign) },
    misses,
    cutPartial: partial,
    stoppedEarly: early,
    falsePositives: fps,
    results: Object.fromEntries(cases.map((c) => [c.id, { class: c.class, label: c.label, protocol: c.protocol, expect: c.expect, verdict: results.get(c.id).verdict, detail: results.get(c.id).detail, ms: Math.round(results.get(c.id).ms) }])),
  };
  if (DIRECT && !option("--out")) {
    // a harness check: nothing worth keeping
  } else if (!ONLY && !ONLY_CLASS) writeFileSync(OUT, JSON.stringify(out, null, 2) + "\n");
  else writeFileSync(OUT.replace(/\.json$/, ".partial.json"), JSON.stringify(out, null, 2) + "\n");
  if (DIRECT) {
    // Without guardwire every message must arrive as sent, and every message the case is about must have been sent.
    const expected = (c) =>
      c.protocol === "a2a"
        ? ["card", "send", "reply"]
        : [
            "initialize",
            "tools/list",
            ...(c.server?.prompts ? ["prompts/list"] : []),
            ...(c.server?.resources ? ["resources/list"] : []),
            ...(c.server?.resourceTemplates ? ["resources/templates/list"] : []),
            ...(c.call ? ["call", "result"] : []),
            ...(c.sampling ? ["sampling", "sampling answer"] : []),
          ];
    const wrong = cases.filter((c) => {
      const slots = results.get(c.id).slots;
      return Object.values(slots).some((s) => s.outcome !== "unchanged" || s.note) || expected(c).some((k) => !slots[k]);
    });
    if (wrong.length) {
      for (const c of wrong) console.error(`direct run: ${c.id}: ${JSON.stringify(results.get(c.id).slots)}`);
      throw new HarnessError(`${wrong.length} case(s) are not unchanged without guardwire: a harness or case problem`);
    }
  }
  return 0;
}

const ratio = (a, b) => (b === 0 ? null : Number((a / b).toFixed(4)));

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof HarnessError ? `blind: ${e.message}` : e);
    process.exit(2);
  },
);
