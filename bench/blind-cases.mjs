// The blind sets' case files as messages (bench/blind.mjs, bench/train-classifier.mjs): a case's defaults merged, the
// case files' conveniences (a tool call written as tool + arguments, file bytes and resource blobs written as text)
// expanded into what goes on the wire, and what each target message carries. The schema: test/fixtures/blind/README.md.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { servedCard } from "../test/fixtures/servers/replay-a2a-card.mjs";

export const b64 = (s) => Buffer.from(s, "utf8").toString("base64");

export const omit = (o, k) => {
  const { [k]: _, ...rest } = o;
  return rest;
};

/** Expands the few conveniences of the case files into the messages that go on the wire. */
export function expandParts(parts) {
  return (parts ?? []).map((p) => {
    if (p.kind === "file" && p.file && p.file.bytesText !== undefined) {
      const { bytesText, ...file } = p.file;
      return { ...p, file: { ...file, bytes: b64(bytesText) } };
    }
    return p;
  });
}

/** A case with its file's defaults and class, its conveniences expanded. */
export function normalizeCase(raw, defaults, fileClass, file) {
  const c = { ...defaults, ...raw, file };
  c.class = c.class ?? fileClass;
  if (defaults.server || raw.server) c.server = { ...(defaults.server ?? {}), ...(raw.server ?? {}) };
  if (typeof c.target === "string") c.target = [c.target];
  if (typeof c.harm === "string") c.harm = [c.harm];
  if (c.protocol === "mcp" && c.call) {
    const call = c.call;
    if (call.tool !== undefined) c.call = { method: "tools/call", params: { name: call.tool, arguments: call.arguments ?? {} } };
    else c.call = { method: call.method ?? "tools/call", params: call.params ?? {} };
    if (c.result && c.result.content)
      c.result = {
        ...c.result,
        content: c.result.content.map((x) =>
          x.type === "resource" && x.resource?.blobText !== undefined ? { ...x, resource: { ...omit(x.resource, "blobText"), blob: b64(x.resource.blobText) } } : x,
        ),
      };
  }
  if (c.protocol === "a2a") {
    c.send = { method: "message/send", ...(c.send ?? {}) };
    c.send.parts = expandParts(c.send.parts);
    if (c.reply?.message) c.reply = { ...c.reply, message: { ...c.reply.message, parts: expandParts(c.reply.message.parts) } };
    if (c.reply?.task) c.reply = { ...c.reply, task: { ...c.reply.task, artifacts: (c.reply.task.artifacts ?? []).map((a) => ({ ...a, parts: expandParts(a.parts) })) } };
  }
  return c;
}

/** What a target message of a case carries (the part of it the case file writes). */
export function targetContent(c, t) {
  const s = c.server ?? {};
  switch (t) {
    case "initialize": return s.instructions;
    case "tools/list": return s.tools;
    case "prompts/list": return s.prompts;
    case "resources/list": return s.resources;
    case "resources/templates/list": return s.resourceTemplates;
    case "call": return c.call?.params;
    case "result": return c.result ?? c.error;
    case "sampling": return c.sampling;
    case "card": return c.card;
    case "send": return c.send?.parts;
    case "reply": return c.reply;
    default: return undefined;
  }
}

/** Every string in a JSON value, joined: where a harm marker is looked for. */
export function stringsOf(v, out = []) {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) stringsOf(x, out);
  else if (v && typeof v === "object")
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      stringsOf(x, out);
    }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The open blind sets as message sequences (bench/decisions-compare.mjs, bench/blind-inproc.mjs)

let ids = 0;

/** The open blind sets, by name only: blind, blind2 … blind84. 85 or above are never read. */
export function openBlindSets(fixtures) {
  const open = (name) => {
    if (name === "blind") return true;
    const m = /^blind([1-9][0-9]*)$/.exec(name);
    if (!m) return false;
    const n = Number(m[1]);
    return n < 85;
  };
  return readdirSync(fixtures)
    .filter(open)
    .filter((n) => statSync(join(fixtures, n)).isDirectory())
    .sort((a, b) => (Number(a.slice(5)) || 1) - (Number(b.slice(5)) || 1));
}

const LISTS = [
  ["tools/list", "tools", "tools"],
  ["prompts/list", "prompts", "prompts"],
  ["resources/list", "resources", "resources"],
  ["resources/templates/list", "resourceTemplates", "resourceTemplates"],
];

/** A blind case's messages in the order bench/blind.mjs plays them, each with its direction and the request it answers. */
export function blindSteps(c) {
  const steps = [];
  const answer = (method, params, result, extra = {}) => {
    const id = ++ids;
    steps.push({ protocol: c.protocol, message: { jsonrpc: "2.0", id, ...result }, request: { jsonrpc: "2.0", id, method, ...(params ? { params } : {}) }, direction: "inbound", ...extra });
  };
  if (c.protocol === "a2a") {
    if (c.card) answer("agent/card", null, { result: servedCard(c, "http://127.0.0.1:41241") }); // as the replaying agent serves it: without `url` and `protocolVersion` a card is not read as one
    const send = { jsonrpc: "2.0", id: ++ids, method: c.send?.method ?? "message/send", params: { message: { kind: "message", role: "user", messageId: `m-${ids}`, parts: c.send?.parts ?? [] }, ...(c.send?.configuration ? { configuration: c.send.configuration } : {}) } };
    steps.push({ protocol: "a2a", message: send, request: null, direction: "outbound" });
    const r = c.reply ?? {};
    const replies = r.events ?? [r.task ?? r.message].filter(Boolean);
    for (const ev of replies) steps.push({ protocol: "a2a", message: { jsonrpc: "2.0", id: send.id, result: ev }, request: send, direction: "inbound" });
    return steps;
  }
  const s = c.server ?? {};
  // The messages the case writes (an initialize without instructions or an empty list carries nothing of the case).
  if (s.instructions !== undefined || s.serverInfo !== undefined)
    answer("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } }, {
      result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: s.serverInfo ?? { name: "s", version: "1" }, ...(s.instructions !== undefined ? { instructions: s.instructions } : {}) },
    });
  for (const [method, key, field] of LISTS) if (s[key]) answer(method, {}, { result: { [field]: s[key] } });
  if (c.call) {
    const call = { jsonrpc: "2.0", id: ++ids, method: c.call.method ?? "tools/call", params: c.call.params ?? {} };
    steps.push({ protocol: "mcp", message: call, request: null, direction: "outbound" });
    if (c.sampling) steps.push({ protocol: "mcp", message: { jsonrpc: "2.0", id: ++ids, method: "sampling/createMessage", params: c.sampling }, request: null, direction: "inbound" });
    if (c.result !== undefined) steps.push({ protocol: "mcp", message: { jsonrpc: "2.0", id: call.id, result: c.result }, request: call, direction: "inbound" });
    else if (c.error !== undefined) steps.push({ protocol: "mcp", message: { jsonrpc: "2.0", id: call.id, error: c.error }, request: call, direction: "inbound" });
  }
  return steps;
}

/**
 * One step through an embedded guardian as the proxy hands it over: a fresh copy of the message and its request, in
 * the step's session and route (pins are kept per route). The probe and decisions-compare both judge this way.
 */
export function judgeStep(M, guardian, step, session, route = step.route ?? "test") {
  const ctx = {
    direction: step.direction,
    session,
    route,
    transport: "test",
    agent: step.agent ? { id: step.agent } : null,
    server: { name: step.server ?? "test-server" },
    request: step.request ? structuredClone(step.request) : null,
  };
  return guardian.call(M.buildAosRequest(step.protocol === "a2a" ? "protocols/A2A" : "protocols/MCP", structuredClone(step.message), ctx));
}

export function openBlindCases(fixtures, only = null) {
  const out = [];
  for (const set of openBlindSets(fixtures)) {
    if (only && !only.includes(set)) continue;
    const dir = join(fixtures, set);
    for (const f of readdirSync(dir).filter((x) => /\.ya?ml$/.test(x)).sort()) {
      const doc = parseYaml(readFileSync(join(dir, f), "utf8"), { maxAliasCount: -1 });
      const list = Array.isArray(doc) ? doc : doc?.cases;
      if (!Array.isArray(list)) continue;
      const defaults = Array.isArray(doc) ? {} : (doc.defaults ?? {});
      for (const raw of list) {
        const c = normalizeCase(raw, defaults, doc.class, f);
        out.push({ name: `${set}/${f}: ${c.id}`, set, case: c, steps: blindSteps(c) });
      }
    }
  }
  return out;
}

