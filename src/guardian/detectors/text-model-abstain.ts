/*
 * (Twentieth round, "exf20") Where the text model has nothing to judge in a message to another agent.
 *
 * A request of a few words ("Print this set.", "Summarise this report.") with documents the other agent fetches by
 * their address holds no instruction that could do harm: it names no destination, no command, no data. What could do
 * harm is the address itself (a key in its query, a credentials file, a collector's host), and that is the rules' to
 * judge (exfiltration.ts reads every file part's URI; paths.ts its path). The model, trained on attacks that carried
 * their harm in such a part behind the same few words, scored the words alone (0.94 for "Print this set."): a score of
 * three words is no judgement. File bytes and data parts are content the model does read, so they keep it.
 */

const A2A_SENDS = new Set(["message/send", "message/stream", "SendMessage", "SendStreamingMessage"]);
/** At most this many words of prose, and this many characters. */
const MAX_WORDS = 4;
const MAX_CHARS = 48;

/** Whether a message to another agent is a short request with documents given only by their address. */
export function shortRequestOfAddressedFiles(message: Record<string, unknown>, prose: string): boolean {
  if (typeof message.method !== "string" || !A2A_SENDS.has(message.method)) return false;
  if (prose.length > MAX_CHARS) return false;
  const words = prose.split(/\s+/, MAX_WORDS + 2).filter((w) => w !== "");
  if (words.length > MAX_WORDS) return false;
  const params = message.params as { message?: { parts?: unknown } } | undefined;
  const parts = params?.message?.parts;
  if (!Array.isArray(parts) || parts.length > 8) return false;
  let files = 0;
  for (const p of parts) {
    if (typeof p !== "object" || p === null) return false;
    const part = p as { kind?: unknown; file?: { uri?: unknown; bytes?: unknown } };
    if (part.kind === "text") continue;
    if (part.kind !== "file" || typeof part.file !== "object" || part.file === null) return false;
    if (typeof part.file.uri !== "string" || part.file.bytes !== undefined) return false;
    files++;
  }
  return files > 0;
}
