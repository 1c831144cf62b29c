import { inflateRawSync, inflateSync } from "node:zlib";
import { hostMatcher } from "./urls.js";
import { detectSecrets } from "./secrets.js";

/*
 * (Ninth round) A diagram drawn by a public renderer is not data leaving.
 *
 * Kroki, the PlantUML server and mermaid.ink draw a diagram whose source is in the URL itself, compressed and encoded
 * (`https://kroki.io/plantuml/svg/eJx…`, `https://www.plantuml.com/plantuml/svg/SoWkIImg…`,
 * `https://mermaid.ink/img/pako:eNp…`). Read as a URL, that is a long blob in a path: what the exfiltration check
 * refuses in an image or a link. What makes it safe is two things together, and both are checked:
 *
 *   - the host is one of those public renderers, whose request logs an attacker cannot read (like the badge and avatar
 *     hosts of the allow list); a look-alike host of the attacker's, serving the same path, is judged as before;
 *   - the encoded piece decodes (deflate, or plain base64 for mermaid.ink) to the text of a diagram that holds no URL,
 *     no include, no image tag and no credential. A renderer may fetch what a diagram names (PlantUML's `!include`
 *     and `<img:…>`, an `<img src>` in a Mermaid label drawn by a headless browser): a diagram that names any address
 *     would relay data to it, so it stays a finding, as does any piece that does not decode to text.
 *
 * Bounded: at most 16 pieces per URL, 8 KB each, inflated to at most 64 KB.
 */

export const DEFAULT_RENDERERS = ["kroki.io", "www.plantuml.com", "plantuml.com", "mermaid.ink"].map(hostMatcher);

const PLANTUML_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
const BASE64URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const MAX_OUT = 65536;

/** Whether a URL is a public renderer's, every encoded piece of which is a diagram's source that names nothing (see above). */
export function renderedDiagram(url: URL, credentialText: (text: string) => boolean): boolean {
  const host = url.hostname.toLowerCase();
  if (!DEFAULT_RENDERERS.some((re) => re.test(host))) return false;
  if (url.username !== "" || url.password !== "" || url.hash.length > 1) return false;
  const pieces = url.pathname.split("/").filter((s) => s.length >= 24);
  for (const [, v] of url.searchParams) if (v.length >= 24) pieces.push(v);
  if (pieces.length === 0 || pieces.length > 16) return false;
  return pieces.every((p) => {
    const text = diagramText(p.replace(/\.(?:svg|png|jpe?g|pdf|txt)$/i, ""), host === "mermaid.ink");
    return text !== null && namesNothing(text) && !credentialText(text);
  });
}

/** The diagram source an encoded piece holds, or null. */
function diagramText(piece: string, plain: boolean): string | null {
  if (piece.length > 8192) return null;
  const body = piece.startsWith("pako:") ? piece.slice(5) : piece;
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(body) && !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return null;
  const bytes = Buffer.from(body.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  const attempts: (() => Buffer)[] = [
    () => inflateSync(bytes, { maxOutputLength: MAX_OUT }),
    () => inflateRawSync(bytes, { maxOutputLength: MAX_OUT }),
    // PlantUML's own alphabet (digits first), then raw deflate.
    () => inflateRawSync(Buffer.from([...body].map((c) => BASE64URL_ALPHABET[PLANTUML_ALPHABET.indexOf(c)] ?? "").join(""), "base64url"), { maxOutputLength: MAX_OUT }),
  ];
  // Plain base64 of the source: mermaid.ink's other form only.
  if (plain && !piece.startsWith("pako:")) attempts.push(() => bytes);
  for (const attempt of attempts) {
    let out: Buffer;
    try {
      out = attempt();
    } catch {
      continue;
    }
    const text = out.toString("utf8");
    if (text.length >= 8 && readable(text)) return piece.startsWith("pako:") ? mermaidCode(text) : text;
  }
  return null;
}

/** Text, not bytes: no control characters but line ends and tabs, no replacement characters. */
function readable(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 9 && c !== 10 && c !== 13) || c === 0x7f || c === 0xfffd) return false;
  }
  return true;
}

/** mermaid.ink's `pako:` state is JSON with the diagram in `code`. */
function mermaidCode(text: string): string | null {
  try {
    const state = JSON.parse(text) as { code?: unknown };
    return typeof state.code === "string" ? state.code : null;
  } catch {
    return null;
  }
}

/** A diagram that names no address to fetch and holds no credential. */
function namesNothing(text: string): boolean {
  if (/:\/\/|!include|!import|<img|\bimg\s*:|\bsrc\s*=|\burl\s*\(|\bhref\b|www\./i.test(text)) return false;
  return detectSecrets([{ path: [], value: text }]).length === 0;
}
