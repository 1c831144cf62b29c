import { detectInjection } from "../../src/guardian/detectors/injection.js";
import { lookup } from "../../src/guardian/detectors/injection-lexicon.js";

/** The injection scorer on a tool result holding `text`. */
export const toolResult = (text: string) => detectInjection({ sites: [{ path: ["result", "content", 0, "text"], value: text }], message: { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text }] } } });

/** The injection scorer on an A2A agent's reply holding `text`. */
export const agentReply = (text: string) =>
  detectInjection({ sites: [{ path: ["result", "parts", 0, "text"], value: text }], message: { jsonrpc: "2.0", id: 1, result: { kind: "message", messageId: "m", role: "agent", parts: [{ kind: "text", text }] } } });

/** The injection scorer on a server's `sampling/createMessage`: its system prompt, one user message, and its context. */
export const samplingPrompt = (systemPrompt: string, text = "Go ahead.", includeContext?: string) => {
  const params: Record<string, unknown> = { maxTokens: 100, systemPrompt, messages: [{ role: "user", content: { type: "text", text } }] };
  if (includeContext) params.includeContext = includeContext;
  return detectInjection({
    sites: [
      { path: ["params", "systemPrompt"], value: systemPrompt },
      { path: ["params", "messages", 0, "content", "text"], value: text },
    ],
    message: { jsonrpc: "2.0", id: 1, method: "sampling/createMessage", params },
  });
};

/** `text`'s words split as the scorer splits them, with their cues (enough for a module's own checks). */
export function scorerTokens(text: string) {
  return [...text.matchAll(/[\p{L}\p{N}_\p{So}]+(?:['’.-][\p{L}\p{N}_]+)*/gu)].map((m) => {
    const w = m[0].toLowerCase();
    return { w, raw: m[0], s: m.index as number, e: (m.index as number) + m[0].length, cues: lookup(w)?.cues ?? [] };
  });
}
