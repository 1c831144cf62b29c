/**
 * An opt-in, redacted preview of a message for the log (`--log-preview`): its params/result/error as JSON, with the
 * values of secret-looking keys and anything shaped like a credential masked, cut to `max` characters.
 */
const SECRET_KEY = /pass(word)?|secret|token|api[-_]?key|auth|credential|private[-_]?key|cookie|session[-_]?id/i;
const SECRET_VALUE =
  /AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|xox[baprs]-[A-Za-z0-9-]{10,}|sk_live_[A-Za-z0-9]{16,}|sk-[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{35}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}|-----BEGIN [A-Z ]*PRIVATE KEY-----|\b\d{13,19}\b/g;

export function redactedPreview(message: Record<string, unknown>, max = 256): string {
  const body = message.params ?? message.result ?? message.error ?? null;
  let json: string;
  try {
    json = JSON.stringify(body, (key, value: unknown) => (key && SECRET_KEY.test(key) && typeof value !== "object" ? "[redacted]" : value)) ?? "null";
  } catch {
    return "[unserializable]";
  }
  const cut = json.length > max * 4 ? json.slice(0, max * 4) : json;
  const masked = cut.replace(SECRET_VALUE, "[redacted]");
  return masked.length > max ? masked.slice(0, max) + "…" : masked;
}
