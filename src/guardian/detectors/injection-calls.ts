/*
 * Twenty-fourth round (issue 24, "inj24"): a tool call handed to the caller in returned data. A tool's result or an
 * agent's reply may carry an object shaped as a call for the reader to make — `{"type": "tool_call", "name":
 * "bank_transfer", "arguments": {…}}`, `{"tool_calls": [{"function": {"name": …, "arguments": "…"}}]}`, `{"next_action":
 * {"actor": "calling_agent", "action": "update_payout_account", …}}` — instead of a sentence. The order is in the shape,
 * so no sentence of it says "agent, do this". Each such object is spelled as the order it is ("agent: call bank
 * transfer with amount eur: 420; iban: …") and that text is judged by the ordinary scorer: it fires only when the call
 * asks for something consequential (money moved, data sent out, records changed or deleted, a protection off).
 *
 * Handed to the caller: the object sits under a key naming pending calls (tool_call(s), function_call, next_action(s),
 * required_action, handoff, pending_actions), or its own `type`/`kind` says it is a call or a handoff, or an `actor` /
 * `assignee` / `executor` field names the caller or an agent. A call already made — one with an output, a result, a
 * response, an observation or an error beside it (an agent's trace of its own work) — is a report, not an order, and
 * is left alone; so is a call that asks nothing consequential (a client-side function "get_current_location"), and a
 * next action that is a bare word ("show_rating_prompt").
 *
 * Bounded: at most 8 levels and 2,000 nodes of the result are walked, each spelled call at most 600 characters.
 */

type Json = unknown;
type Path = (string | number)[];

export interface HandedCall {
  /** The path of what is cut: the call object, or the object that hands it over under a key of pending calls. */
  path: Path;
  /** The call spelled as an order, to be judged. */
  text: string;
}

const PENDING_KEYS = new Set(["toolcall", "toolcalls", "functioncall", "functioncalls", "nextaction", "nextactions", "requiredaction", "requiredactions", "handoff", "pendingactions", "pendingaction", "actionrequired", "calls", "invoke"]);
const CALL_TYPES = new Set(["toolcall", "functioncall", "function", "handoff", "action", "tooluse", "call", "invoke", "command"]);
const NAME_KEYS = ["name", "tool", "toolname", "function", "action", "method", "operation"];
const ARG_KEYS = ["arguments", "args", "parameters", "params", "input", "payload"];
const ACTOR_KEYS = ["actor", "assignee", "executor", "performer", "by", "for", "target_agent", "targetagent"];
const DONE_KEYS = new Set(["output", "outputs", "result", "results", "response", "observation", "error", "returned", "returnvalue", "completedat", "duration"]);
const ACTOR_WORDS = /\b(?:caller|calling|agent|assistant|client|orchestrator|you|model)\b/i;
/** A tool's name: an identifier, with words joined by `_`, `-`, `.` or camel humps (not a sentence). */
const IDENT = /^[A-Za-z][A-Za-z0-9]{0,40}(?:[_.-][A-Za-z0-9]{1,40}){0,6}$/;

const norm = (k: string) => k.toLowerCase().replace(/[-_. ]/g, "");
const isObj = (v: Json): v is Record<string, Json> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The words of an identifier ("update_payout_account", "transferFunds" → "update payout account", "transfer Funds"). */
function words(id: string): string {
  return id.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_.-]+/g, " ");
}

/** A value spelled flat, "key: value; key: value", at most `room` characters. */
function flat(v: Json, room: number, depth = 0): string {
  if (room <= 0 || depth > 3) return "";
  if (typeof v === "string") {
    const t = v.trim();
    if (t.startsWith("{") && t.length <= 2000 && depth === 0) {
      try {
        return flat(JSON.parse(t) as Json, room, depth + 1);
      } catch {
        /* not JSON: the text itself */
      }
    }
    return t.slice(0, room);
  }
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  let out = "";
  if (Array.isArray(v)) {
    for (const x of v.slice(0, 20)) {
      if (out.length >= room) break;
      out += (out ? ", " : "") + flat(x, room - out.length, depth + 1);
    }
    return out.slice(0, room);
  }
  if (isObj(v)) {
    for (const [k, x] of Object.entries(v).slice(0, 30)) {
      if (out.length >= room) break;
      out += (out ? "; " : "") + words(k) + ": " + flat(x, room - out.length - k.length - 2, depth + 1);
    }
  }
  return out.slice(0, room);
}

/** The call an object states, or null: its tool's name and what goes with it. */
function callOf(o: Record<string, Json>): { name: string; rest: Json } | null {
  for (const k of Object.keys(o)) if (DONE_KEYS.has(norm(k))) return null;
  // OpenAI's shape: {"type": "function", "function": {"name": …, "arguments": "…"}}.
  const fn = o.function;
  if (isObj(fn) && typeof fn.name === "string" && IDENT.test(fn.name)) return { name: fn.name, rest: fn.arguments ?? null };
  let name: string | null = null;
  for (const k of NAME_KEYS) {
    const v = o[k];
    if (typeof v === "string" && IDENT.test(v) && /[_.A-Z-]/.test(v.slice(1))) {
      name = v;
      break;
    }
  }
  if (name === null) return null;
  for (const k of ARG_KEYS) if (o[k] !== undefined && (isObj(o[k]) || typeof o[k] === "string")) return { name, rest: Object.fromEntries(Object.entries(o).filter(([x]) => !NAME_KEYS.includes(x))) };
  // Without an arguments field, the object's other fields are its arguments when an actor says whose call it is.
  for (const k of ACTOR_KEYS) {
    const v = o[k];
    if (typeof v === "string" && ACTOR_WORDS.test(v.replace(/[_-]/g, " "))) return { name, rest: Object.fromEntries(Object.entries(o).filter(([x]) => !NAME_KEYS.includes(x) && !ACTOR_KEYS.includes(x))) };
  }
  return null;
}

/** Whether an object is handed over as a call: under a key of pending calls, typed as one, or with an actor named. */
function handed(o: Record<string, Json>, underPending: boolean): boolean {
  if (underPending) return true;
  for (const k of ["type", "kind"]) {
    const v = o[k];
    if (typeof v === "string" && CALL_TYPES.has(norm(v))) return true;
  }
  for (const k of ACTOR_KEYS) {
    const v = o[k];
    if (typeof v === "string" && ACTOR_WORDS.test(v.replace(/[_-]/g, " "))) return true;
  }
  return false;
}

/** Every call handed to the reader in a response's `result`, spelled as an order ("agent: call … with …"). */
export function handedCalls(message: Record<string, unknown> | null): HandedCall[] {
  if (message === null || message.method !== undefined || !isObj(message.result as Json)) return [];
  // A listing (tools, prompts, resources) is what a server says about itself, judged as poisoning: no data handed back.
  const r = message.result as Record<string, Json>;
  if (Array.isArray(r.tools) || Array.isArray(r.prompts) || Array.isArray(r.resources) || Array.isArray(r.resourceTemplates)) return [];
  const out: HandedCall[] = [];
  let nodes = 0;
  // `envelope`: the object that holds a key of pending calls — its other fields ("note": "execute the call above")
  // hand the call over with it, and are cut with it. One path stack, copied only where a call is found.
  const path: Path = ["result"];
  const walk = (v: Json, depth: number, envelope: Path | null) => {
    if (depth > 8 || ++nodes > 2000 || out.length >= 8) return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length && nodes <= 2000; i++) {
        path.push(i);
        walk(v[i], depth + 1, envelope);
        path.pop();
      }
      return;
    }
    if (!isObj(v)) return;
    const call = handed(v, envelope !== null) ? callOf(v) : null;
    if (call) {
      out.push({ path: envelope ?? [...path], text: `agent: call ${words(call.name)} with ${flat(call.rest, 560)}`.slice(0, 600) });
      return;
    }
    for (const k in v) {
      if (nodes > 2000) break;
      path.push(k);
      walk(v[k], depth + 1, PENDING_KEYS.has(norm(k)) ? path.slice(0, -1) : null);
      path.pop();
    }
  };
  walk(message.result, 0, null);
  return out;
}
