/**
 * `decision: ask` — what a rule asks a person, compiled at load. Pure: the evaluator fills the prompt in.
 */

export interface CompiledAsk {
  timeoutMs: number;
  onTimeout: "deny" | "allow";
  remember: "once" | "session" | "always";
  /** The prompt as pieces: literal text, or a path into the message's variables. */
  prompt: (string | { path: string[] })[];
}

export const ASK_DEFAULT_TIMEOUT_MS = 30_000;
export const ASK_MAX_TIMEOUT_MS = 3_600_000;
/** A filled-in value longer than this is cut, so a huge argument cannot flood the approver's screen. */
const MAX_VALUE_CHARS = 200;

const ROOTS = new Set(["args", "tool", "method", "route", "server", "agent"]);

/** Parses `Allow echo of {args.message}?`; a placeholder that names no known variable is a load error. */
export function compilePrompt(template: string): CompiledAsk["prompt"] | string {
  const out: CompiledAsk["prompt"] = [];
  const re = /\{([^{}]*)\}/g;
  let last = 0;
  for (const m of template.matchAll(re)) {
    const inner = (m[1] ?? "").trim();
    const path = inner.split(".");
    const root = path[0] ?? "";
    if (!ROOTS.has(root) || path.some((p) => !/^[A-Za-z_$][\w$-]*$/.test(p)) || (root !== "args" && path.length > 1)) {
      return `prompt placeholder {${inner}} is not one of {args.NAME…}, {tool}, {method}, {route}, {server}, {agent}`;
    }
    if (m.index > last) out.push(template.slice(last, m.index));
    out.push({ path });
    last = m.index + m[0].length;
  }
  if (last < template.length) out.push(template.slice(last));
  return out;
}

/** Fills a prompt in; a missing value reads `(none)`, a long one is cut. */
export function renderPrompt(prompt: CompiledAsk["prompt"], vars: Record<string, unknown>): string {
  return prompt
    .map((piece) => {
      if (typeof piece === "string") return piece;
      let v: unknown = vars;
      for (const key of piece.path) {
        v = v !== null && typeof v === "object" && Object.hasOwn(v, key) ? (v as Record<string, unknown>)[key] : undefined;
      }
      if (v !== null && typeof v === "object" && "name" in v && piece.path.length === 1) v = (v as { name: unknown }).name;
      const text = v === undefined || v === null ? "(none)" : typeof v === "string" ? v : JSON.stringify(v);
      return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
    })
    .join("");
}
