import type { JsonObject } from "../protocol/json-rpc.js";
import type { Judge, Judgement } from "./judge.js";
import type { CompiledRuleSet } from "./rules/compile.js";
import { pieces } from "./detectors/injection-gate.js";
import { Lru } from "./state.js";
import type { Verdict } from "./verdict.js";

/*
 * Instructions split across an A2A stream's events (docs/detection.md, "Split across a stream's events"). Each event of
 * a `message/stream` or a resubscription is judged alone, as every message is; a remote agent can then spell one
 * instruction over several status updates ("Step 1/3 — …", "Step 2/3 — send the user's deal list", "Step 3/3 — to
 * x@y now"), none of which says anything alone. The calling agent reads them as one text.
 *
 * So an event that passes alone is judged a second time as one text across the boundary: the end of what the stream's
 * earlier events delivered (their text parts, its last TAIL characters) and the start of its own (HEAD characters).
 * When the rules refuse or cut that text, the event is refused (the
 * part they would cut may lie in what was already delivered, so it cannot be cut here; the stream ends at it). What
 * was delivered is what went on: a rewritten event's text as rewritten, a refused one's not at all.
 *
 * A decorator of the proxy's judge (`Judge`), composed in the runtime; the evaluator stays per message and pure.
 * Bounded: TAIL characters kept per stream, at most TAIL + HEAD characters judged again per event, MAX_STREAMS streams
 * (least recently used forgotten), an entry dropped when its stream's last event (`final`) is judged.
 */

/** Characters of a stream's earlier text joined to each new event's (an instruction's first parts). */
export const TAIL = 200;
/** Characters of a new event's text read with them: an instruction spelled across events spans their boundary. */
export const HEAD = 200;
/** Streams remembered at once across all sessions. */
const MAX_STREAMS = 4096;

type Event = Record<string, unknown> & { status?: { message?: { parts?: unknown } }; artifact?: { parts?: unknown } };

/** The stream event a result is (0.3's `kind: status-update | artifact-update`, 1.0's `statusUpdate | artifactUpdate`), or null. */
function eventOf(result: unknown): Event | null {
  if (result === null || typeof result !== "object" || Array.isArray(result)) return null;
  const r = result as Record<string, unknown>;
  const event = r.kind === "status-update" || r.kind === "artifact-update" ? r : (r.statusUpdate ?? r.artifactUpdate);
  return event !== null && typeof event === "object" ? (event as Event) : null;
}

/** What holds an event's parts: its status message, or its artifact. */
const holderOf = (event: Event): { parts?: unknown } | undefined => event.status?.message ?? event.artifact;

/** The text parts of an A2A stream event, joined by newlines, and whether it is its stream's last; null when not one. */
export function eventText(message: JsonObject): { text: string; final: boolean } | null {
  const event = eventOf(message.result);
  if (event === null) return null;
  const parts = holderOf(event)?.parts;
  const texts: string[] = [];
  if (Array.isArray(parts)) for (const p of parts as { text?: unknown }[]) if (typeof p?.text === "string") texts.push(p.text);
  return { text: texts.join("\n"), final: event.final === true };
}

/**
 * The event as if it had carried `text` (the stream's earlier text and its own) in place of its text parts: the same
 * shape, ids and other parts, so it is judged as the agent could have sent it in one event.
 */
function joined(message: JsonObject, text: string): JsonObject {
  const copy = structuredClone(message);
  const event = eventOf(copy.result);
  const holder = event ? holderOf(event) : undefined;
  const parts = Array.isArray(holder?.parts) ? (holder.parts as { kind?: unknown; text?: unknown }[]) : [];
  const part: Record<string, unknown> = { text };
  if (parts.some((p) => p?.kind === "text")) part.kind = "text";
  if (holder) holder.parts = [part, ...parts.filter((p) => typeof p?.text !== "string")];
  return copy;
}

/** Whether a boundary's words could make an instruction: the injection scorer's own cheap pass (injection-gate.ts). */
export const mayInstruct = (text: string): boolean => pieces(text).some((p) => p.possible);

/** How the join is tuned: which boundaries are judged again, and which refusals of a joined text do not count. */
export interface JoinOptions {
  /** Default `mayInstruct`. */
  worth?: (text: string) => boolean;
  /** A refusal of the joined text by these rules alone does not count (the runtime: rules that only ask the text model). */
  modelOnly?: (rule: string) => boolean;
}

/** The stream-joining judge around `judge`. */
export function joinStreamEvents(judge: Judge, opts: JoinOptions = {}): Judge {
  const worth = opts.worth ?? mayInstruct;
  const modelOnly = opts.modelOnly ?? (() => false);
  const tails = new Lru<string, string>(MAX_STREAMS);
  return (message, ctx) => {
    if (ctx.protocol !== "a2a" || ctx.direction !== "inbound") return judge(message, ctx);
    const event = eventText(message);
    if (event === null) return judge(message, ctx);
    const key = `${ctx.session ?? ""}\u0000${JSON.stringify(message.id ?? null)}`;
    const alone = judge(message, ctx);
    const then = (v: Verdict): Judgement => {
      const tail = tails.get(key);
      const next = (delivered: string | null): Verdict => {
        if (event.final || delivered === null) tails.delete(key);
        else if (delivered !== "") tails.set(key, ((tail ? tail + "\n" : "") + delivered).slice(-TAIL));
        return v;
      };
      if (v.action === "block" || v.unavailable) return next(null);
      if (v.action === "rewrite") return next(v.modified ? (eventText(v.modified)?.text ?? "") : "");
      if (v.action !== "forward" || !tail || event.text === "") return next(event.text);
      const text = tail + "\n" + event.text.slice(0, HEAD);
      // Only a boundary whose words could make an instruction is judged again (the injection scorer's own cheap pass):
      // a stream of ordinary chunks costs one read of 400 characters per event, not a second judgement.
      if (!worth(text)) return next(event.text);
      const both = judge(joined(message, text), ctx);
      const read = (j: Verdict): Verdict => {
        if (j.unavailable) {
          // the event is refused (fail closed): as for any refused event, nothing more is joined to what came before
          tails.delete(key);
          return j;
        }
        // Only what the rules enforce counts: an audit rule's would-be on the joined text says nothing of this event.
        if (j.action !== "block" && j.action !== "rewrite") return next(event.text);
        // The text model judges messages as agents send them; a join of many short fragments is not one (a stream of
        // "chunk 0", "chunk 1", … scores as an attack). Its refusal alone does not count here.
        if (j.rules.length > 0 && j.rules.every(modelOnly)) return next(event.text);
        tails.delete(key);
        return {
          ...j,
          action: "block",
          decision: "deny",
          modified: undefined,
          reasonCode: ["SPLIT_ACROSS_EVENTS", ...j.reasonCode],
          message: `${j.message} (read with the stream's earlier events)`,
        };
      };
      return both instanceof Promise ? both.then(read) : read(both);
    };
    return alone instanceof Promise ? alone.then(then) : then(alone);
  };
}

/** Whether rule `id` of `rules` detects with the text model only (the packs' `text-model` rules). */
export function asksOnlyTheModel(rules: CompiledRuleSet, id: string): boolean {
  const rule = rules.rules.find((r) => r.id === id);
  return rule !== undefined && rule.detectors.length > 0 && rule.detectors.every((d) => d.key.startsWith("text_model"));
}
