/*
 * Files carried inside messages as base64: MCP's image, audio and blob resource contents (`data`/`blob` beside a
 * `mimeType`), A2A 0.3's file parts (`file: { bytes, mimeType?, name? }`) and A2A 1.0's parts (`raw` beside
 * `mediaType`/`filename`). A whole `.env` sent to another agent as file bytes is text a detector must read, so a
 * payload that decodes to text is visited decoded; an image or other binary payload is skipped as before.
 *
 * Bounded: a payload is decoded only while its declared type or name says text, or (with no type, or a generic one)
 * while its first 3 KB decode to text; at most 256 KB of one payload and 1 MB of one message are decoded, the rest is
 * not read.
 */

/** Decoded text per payload, and per message. */
export const DECODED_PER_FILE = 256 * 1024;
export const DECODED_PER_MESSAGE = 1024 * 1024;

/** Whether `key` of this object holds a base64 file payload. */
export function isFilePayload(o: Record<string, unknown>, key: string): boolean {
  if (key === "data" || key === "blob") return typeof o.mimeType === "string";
  // A2A: `bytes` (0.3 FileWithBytes) and `raw` (1.0 Part) are base64 by definition.
  if (key === "bytes") return true;
  if (key === "raw") return typeof o.mediaType === "string" || typeof o.filename === "string" || typeof o.mimeType === "string";
  return false;
}

const TEXT_TYPES = /^(?:text\/|application\/(?:json|ld\+json|x-ndjson|xml|yaml|x-yaml|toml|javascript|ecmascript|x-sh|x-shellscript|x-python|sql|graphql|x-www-form-urlencoded|x-env|x-pem-file|pem-certificate-chain|x-httpd-php|csv)$|application\/[\w.+-]*\+(?:json|xml|yaml)$)/i;
const BINARY_TYPES = /^(?:image|audio|video|font)\/|^application\/(?:pdf|zip|gzip|x-tar|x-7z-compressed|wasm|vnd\.)/i;
const TEXT_NAMES = /(?:^|[/\\])\.(?:env|npmrc|netrc|pypirc|pgpass|git-credentials|bashrc|zshrc|profile)(?:\.[\w-]+)?$|\.(?:txt|md|json|ya?ml|toml|ini|cfg|conf|env|properties|pem|key|crt|csv|tsv|log|sh|bash|zsh|ps1|py|js|mjs|cjs|ts|rb|go|java|php|sql|xml|html?|tf|tfvars|hcl)$/i;

/** The payload's text, or null when it is binary (or the message's decoding budget is spent). */
export function fileText(o: Record<string, unknown>, payload: string, budget: { left: number }): string | null {
  if (budget.left <= 0 || payload.length < 4) return null;
  const type = typeof o.mimeType === "string" ? o.mimeType : typeof o.mediaType === "string" ? o.mediaType : "";
  const name = typeof o.name === "string" ? o.name : typeof o.filename === "string" ? o.filename : typeof o.uri === "string" ? o.uri : "";
  const declared = TEXT_TYPES.test(type) || TEXT_NAMES.test(name);
  // An image or an archive is not read, unless its name says it is a text file (a `.env` labelled image/png).
  if (!declared && BINARY_TYPES.test(type)) return null;
  if (!declared && !looksLikeText(decode(payload.slice(0, 4096)))) return null;
  const cap = Math.min(DECODED_PER_FILE, budget.left);
  const bytes = decode(payload.slice(0, Math.ceil(cap / 3) * 4));
  if (!looksLikeText(bytes.subarray(0, 3072))) return null;
  budget.left -= bytes.length;
  return new TextDecoder("utf-8").decode(bytes);
}

/** Base64 or base64url (Node's decoder takes both, and stops at what is not base64). */
function decode(s: string): Buffer {
  return Buffer.from(s, "base64");
}

/** UTF-8 text: no NUL, and hardly any other control character (a multi-byte character cut at the end is allowed). */
function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  let control = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b === 0) return false;
    if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12) control++;
  }
  if (control * 100 > bytes.length) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, trimPartial(bytes)));
    return true;
  } catch {
    return false;
  }
}

/** The length of `bytes` without a UTF-8 sequence cut off at its end. */
function trimPartial(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const b = bytes[end - back] as number;
    if ((b & 0xc0) === 0x80) continue; // continuation byte
    if (b >= 0xc0) return end - back; // a lead byte: the sequence may be cut
    break;
  }
  return end;
}
