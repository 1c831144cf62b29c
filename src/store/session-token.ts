import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { SharedStore } from "./redis.js";

/** A killed session stays killed this long: no replica continues it from its token (docs/scale.md). */
export const KILLED_MS = 24 * 3_600_000;

/** The mark of a killed session, checked before a replica restores a session from its token. */
export function killedKey(store: SharedStore, session: string): string {
  return store.key("session", session, "killed");
}

/**
 * What a session token carries (docs/scale.md): enough for any replica to continue the session, or to find the
 * replica that holds it. Sealed, so an agent can neither read nor change it.
 */
export interface SessionTicket {
  /** The route's name. */
  route: string;
  /** The agent key id the session belongs to (null on a route without keys). */
  agent: string | null;
  /** The guardian's session id: labels, counts and the decision log go on under it on every replica. */
  session: string;
  /** The server's own session id (a Streamable HTTP upstream), or null. */
  upstream: string | null;
  /** The protocol version the server answered `initialize` with. */
  protocol: string | null;
  /** The server's name and version from its `initialize` answer. */
  server: { name: string; version: string } | null;
  /** The replica the session lives in (stdio, WebSocket, legacy-SSE upstreams; legacy-SSE agents); null: any. */
  owner: string | null;
  /** Seconds since the epoch when the token was sealed. */
  issued: number;
}

const VERSION = 1;
const KEY_ID_BYTES = 4;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEAD_BYTES = 1 + KEY_ID_BYTES;
/** Longest token accepted or made (characters): it travels in a header and in legacy SSE's query string. */
export const MAX_TOKEN_CHARS = 1024;
/** Longest text field a token carries (characters); the server's name and version are cut to it. */
export const MAX_FIELD_CHARS = 256;

interface Key {
  id: Buffer;
  secret: Buffer;
  /** For the hop header between replicas (src/proxy/forward.ts): derived, never the sealing key itself. */
  hop: Buffer;
}

/**
 * AES-256-GCM sealed session tokens: a version byte, the sealing key's id (so a rotated-out key is found without
 * trying each), a random IV, the sealed JSON and its tag, base64url. The first key seals; every key listed opens.
 */
export class SessionTokens {
  private readonly keys: Key[];

  /** `keys`: 32-byte keys, base64; none: a random key of this process (tokens open nowhere else). */
  constructor(keys: readonly string[] = []) {
    const secrets = keys.length > 0 ? keys.map(decodeKey) : [randomBytes(32)];
    this.keys = secrets.map((secret) => ({
      id: createHash("sha256").update(secret).digest().subarray(0, KEY_ID_BYTES),
      secret,
      hop: createHmac("sha256", secret).update("guardwire replica hop").digest(),
    }));
  }

  seal(t: SessionTicket): string {
    const key = this.keys[0] as Key;
    const head = Buffer.alloc(HEAD_BYTES);
    head[0] = VERSION;
    key.id.copy(head, 1);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", key.secret, iv);
    cipher.setAAD(head);
    const body = Buffer.concat([cipher.update(JSON.stringify(compact(t)), "utf8"), cipher.final()]);
    const token = Buffer.concat([head, iv, body, cipher.getAuthTag()]).toString("base64url");
    if (token.length > MAX_TOKEN_CHARS) throw new Error(`a session token would be ${token.length} characters, over ${MAX_TOKEN_CHARS}`);
    return token;
  }

  /** The ticket, or null for anything not sealed by one of the keys (tampered, truncated, foreign, too long). */
  open(token: string): SessionTicket | null {
    if (token.length > MAX_TOKEN_CHARS || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
    const raw = Buffer.from(token, "base64url");
    if (raw.length < HEAD_BYTES + IV_BYTES + TAG_BYTES + 2 || raw[0] !== VERSION) return null;
    const head = raw.subarray(0, HEAD_BYTES);
    const iv = raw.subarray(HEAD_BYTES, HEAD_BYTES + IV_BYTES);
    const body = raw.subarray(HEAD_BYTES + IV_BYTES, raw.length - TAG_BYTES);
    const tag = raw.subarray(raw.length - TAG_BYTES);
    for (const key of this.keys) {
      if (!key.id.equals(head.subarray(1))) continue;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key.secret, iv);
        decipher.setAAD(head);
        decipher.setAuthTag(tag);
        const text = Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
        return expand(JSON.parse(text));
      } catch {
        // another key with the same id (one in 4 billion), or not ours: try on
      }
    }
    return null;
  }

  /** A MAC of `text` under the sealing key, for the hop header between replicas. */
  hopMac(text: string): string {
    return createHmac("sha256", (this.keys[0] as Key).hop).update(text).digest("base64url");
  }

  /** Whether `mac` is `text`'s hop MAC under any listed key (a rotation in progress across replicas). */
  hopValid(text: string, mac: string): boolean {
    const given = Buffer.from(mac, "base64url");
    return this.keys.some((k) => {
      const want = createHmac("sha256", k.hop).update(text).digest();
      return given.length === want.length && timingSafeEqual(given, want);
    });
  }
}

function decodeKey(b64: string): Buffer {
  const k = Buffer.from(b64, "base64");
  if (k.length !== 32) throw new Error(`a sessions.keys entry is ${k.length} bytes, not 32 (openssl rand -base64 32)`);
  return k;
}

const cut = (s: string) => (s.length > MAX_FIELD_CHARS ? s.slice(0, MAX_FIELD_CHARS) : s);

/** Short field names: the token travels in every request's header. */
function compact(t: SessionTicket): unknown[] {
  return [t.route, t.agent, t.session, t.upstream, t.protocol, t.server ? [cut(t.server.name), cut(t.server.version)] : null, t.owner, t.issued];
}

function expand(v: unknown): SessionTicket | null {
  if (!Array.isArray(v) || v.length !== 8) return null;
  const [route, agent, session, upstream, protocol, server, owner, issued] = v as unknown[];
  const text = (x: unknown) => typeof x === "string";
  const textOrNull = (x: unknown) => x === null || text(x);
  if (!text(route) || !textOrNull(agent) || !text(session) || !textOrNull(upstream) || !textOrNull(protocol) || !textOrNull(owner) || typeof issued !== "number") return null;
  if (server !== null && !(Array.isArray(server) && server.length === 2 && text(server[0]) && text(server[1]))) return null;
  return {
    route: route as string,
    agent: agent as string | null,
    session: session as string,
    upstream: upstream as string | null,
    protocol: protocol as string | null,
    server: server ? { name: (server as string[])[0] as string, version: (server as string[])[1] as string } : null,
    owner: owner as string | null,
    issued,
  };
}
