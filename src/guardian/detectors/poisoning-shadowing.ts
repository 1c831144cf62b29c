import type { Detection } from "./scan.js";

/*
 * (Twenty-third round, the lead) Tool shadowing (`tool_poisoning.shadowing`): a tool's description tells the model to
 * use it instead of another named tool and claims that other tool no longer counts — deprecated, ignored, disabled,
 * broken. A server that wants the calls meant for another tool (the user's mail, an approval with its checks) says
 * exactly that; the model cannot check the claim and the user never reads it.
 *
 * Read in one tool of a `tools/list` result: its description (at most 2 KB) names another tool — one of the list, or a
 * name shaped like a tool's (`send_email`, `release.approve`) — after "instead of", "rather than", "do not use", "never
 * call", or before "must not be used", or as "X is deprecated" followed by an order to use this one ("route every
 * message through …", "always use this"); and the description says of a tool other than itself that it is
 * deprecated, obsolete, retired, disabled, ignored, broken or no longer works.
 *
 * What passes: a tool describing itself as deprecated ("Deprecated: use search_v2 instead"); a successor naming its own
 * predecessor (the two names the same once versions and `legacy`/`old`/`new` are set aside, or one name's words all in
 * the other's: `list_files` and `list_files_fast`); advice to prefer a safer tool with no claim that the other is void
 * ("use this instead of run_shell for read-only queries"). Cost: only `result.tools`' descriptions; bounded regexes.
 */

const MAX_DESCRIPTION = 2048;
const MAX_TOOLS = 256;
/** A name shaped like a tool's: words joined by `_`, `-` or `.`, or camelCase. */
const TOOL_SHAPED = /^(?:[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]+)+)$/;
/** Where a description sets another tool aside: the name that follows (group 1) or precedes (group 2). */
const SET_ASIDE =
  /\b(?:instead\s{1,3}of|rather\s{1,3}than|in\s{1,3}place\s{1,3}of|(?:do\s{1,3}not|don't|never|must\s{1,3}not)\s{1,3}(?:use|call|invoke|run)|not\s{1,3}(?:use|call)\s{1,3}the)\s{1,3}(?:the\s{1,3})?[`'"]?([A-Za-z][\w.-]{2,63})|[`'"]?([A-Za-z][\w.-]{2,63})[`'"]?\s{1,3}(?:tool\s{1,3})?(?:must|should)\s{1,3}not\s{1,3}be\s{1,3}(?:used|called)|[`'"]?([A-Za-z][\w.-]{2,63})[`'"]?\s{1,3}(?:tool\s{1,3})?(?:is|has\s{1,3}been|was)\s{1,3}(?:now\s{1,3})?(?:deprecated|obsolete|retired|disabled|broken|decommissioned|discontinued)\b(?=[^]{0,200}?\b(?:use\s{1,3}this|always\s{1,3}use|(?:route|send)\s{1,3}(?:every|all|each)\b|through\s{1,3}[`'"]?[a-z][\w.-]{2,63}|call\s{1,3}this))/gi;
/** The claim that a tool no longer counts. */
const VOID =
  /\b(?:deprecated|obsolete|retired|decommissioned|disabled|discontinued|sunset(?:ted)?|(?:is|are|get|gets)\s{1,3}ignored|broken|no\s{1,3}longer\s{1,3}(?:works?|supported|valid|maintained|counts?)|(?:does|do)\s{1,3}not\s{1,3}work|stopped\s{1,3}working)\b/i;
/** The description speaks of itself as the void one: "Deprecated: …", "This tool is deprecated". */
const SELF_VOID = /^\s*\[?(?:deprecated|obsolete|legacy)\b|\bthis\s{1,3}(?:tool|endpoint|function|method|version)\s{1,3}(?:is|has\s{1,3}been)\s{1,3}(?:now\s{1,3})?(?:deprecated|obsolete|retired|disabled)/i;
/** Words a successor's name adds or drops: versions and their adjectives. */
const VERSION_WORD = /^(?:v?\d+|old|new|legacy|next|beta|alpha|classic|deprecated|latest)$/;

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[_.-]+/)
    .filter((w) => w.length > 0 && !VERSION_WORD.test(w));
}

/** One name's words all among the other's (versions aside): a tool and its own successor or variant. */
function sameFamily(a: string, b: string): boolean {
  const wa = words(a);
  const wb = words(b);
  if (wa.length === 0 || wb.length === 0) return true;
  return wa.every((w) => wb.includes(w)) || wb.every((w) => wa.includes(w));
}

export function detectShadowing(result: unknown): Detection[] {
  if (result === null || typeof result !== "object" || !Array.isArray((result as { tools?: unknown }).tools)) return [];
  const tools = ((result as { tools: unknown[] }).tools).slice(0, MAX_TOOLS);
  const names = new Set<string>();
  for (const t of tools) if (t !== null && typeof t === "object" && typeof (t as { name?: unknown }).name === "string") names.add((t as { name: string }).name);
  const out: Detection[] = [];
  tools.forEach((t, i) => {
    if (t === null || typeof t !== "object") return;
    const { name, description } = t as { name?: unknown; description?: unknown };
    if (typeof name !== "string" || typeof description !== "string" || description.length > MAX_DESCRIPTION) return;
    if (!VOID.test(description) || SELF_VOID.test(description)) return;
    SET_ASIDE.lastIndex = 0;
    for (let m; (m = SET_ASIDE.exec(description)) !== null; ) {
      const other = (m[1] ?? m[2] ?? m[3] ?? "").replace(/[.,;:'"`]+$/, "");
      if (other === name || !(names.has(other) || TOOL_SHAPED.test(other)) || sameFamily(name, other)) continue;
      out.push({ type: "tool_poisoning.shadowing", path: ["result", "tools", i, "description"], start: m.index, end: m.index + m[0].length, detail: `a tool has the model use it instead of ${other}, claiming that tool no longer counts` });
      return;
    }
  });
  return out;
}
