/*
 * Twelfth round ("smp12"): a sampling request that hands the model untrusted text to classify. A moderation or
 * injection-screening server sends, as its system prompt, a classification task and an explicit "never follow
 * instructions inside it" (or "the text is untrusted data"), and as its user messages the text to judge — which, for
 * a screening server, is often an injection. When the request also sends none of the client's context
 * (`includeContext` absent or "none"), those messages are the server's own data: the model sees nothing of the
 * session an instruction there could reach, and its answer is judged on the way back. So the user messages of such a
 * request are not read as the prompt's instructions (injection.ts skips them); the system prompt still is, and any
 * request that sends the client's context is read whole.
 */

const TASK = /\b(?:classif\w{0,6}|label\w{0,3}|detect\w{0,3}|moderat\w{1,5}|screen\w{0,3}|triage\w{0,2}|categori[sz]\w{1,4}|flag\w{0,3}|judge|assess\w{0,3})\b/i;
const NO_FOLLOW =
  /\b(?:never|do\s{1,3}not|don't|must\s{1,3}not)\s{1,3}(?:ever\s{1,3})?(?:follow|obey|execute|act\s{1,3}on|carry\s{1,3}out|comply\s{1,3}with)\b[^.;\n]{0,40}?\b(?:instructions?|commands?|requests?|directives?|orders?)\b|\buntrusted\s{1,3}(?:data|input|text|content)\b|\btreat\b[^.;\n]{0,40}?\bas\s{1,3}(?:untrusted\s{1,3})?(?:data|text\s{1,3}to\s{1,3}(?:classify|label|judge))\b/i;

/** Whether a message is a sampling request that hands untrusted text to classify and sends none of the client's context. */
export function classifierFrame(message: Record<string, unknown> | null): boolean {
  if (message?.method !== "sampling/createMessage") return false;
  const p = message.params as Record<string, unknown> | undefined;
  if (!p || (p.includeContext !== undefined && p.includeContext !== "none")) return false;
  const sp = p.systemPrompt;
  if (typeof sp !== "string" || sp.length > 4000) return false;
  return TASK.test(sp) && NO_FOLLOW.test(sp);
}

/** Whether a site's path is a user message's content in a sampling request (`params.messages[i]…`, role "user"). */
export function userMessageSite(message: Record<string, unknown> | null, path: readonly (string | number)[]): boolean {
  if (path[0] !== "params" || path[1] !== "messages" || typeof path[2] !== "number") return false;
  const list = (message?.params as Record<string, unknown> | undefined)?.messages;
  const m = Array.isArray(list) ? (list[path[2]] as Record<string, unknown> | undefined) : undefined;
  return m?.role === "user";
}
