import { randomUUID } from "node:crypto";

interface Target {
  /** The caller's own callback URL and token, as its request gave them. */
  url: string;
  token: string | null;
}

const MAX_TARGETS = 10_000;

/**
 * Push notifications through the proxy: every callback URL a caller registers with a remote agent is replaced by a
 * proxy URL (`<route>/push/<id>`), so the agent's webhook posts cross the guardian before they reach the caller.
 * The table is bounded: past 10,000 registrations the oldest is forgotten (its posts are then refused with 404).
 */
export class PushRelay {
  private readonly targets = new Map<string, Target>();
  /** Proxy URL → the caller's URL, to give callers their own URL back in push-config answers. */
  private readonly originals = new Map<string, string>();

  /** The proxy URL to give the agent instead of the caller's `url`. `base` is `<proxy>/<route>/push/`. */
  register(url: string, token: string | null, base: string): string {
    for (const [proxyUrl, original] of this.originals) if (original === url && proxyUrl.startsWith(base)) return proxyUrl;
    const id = randomUUID();
    const proxyUrl = base + id;
    this.targets.set(id, { url, token });
    this.originals.set(proxyUrl, url);
    if (this.targets.size > MAX_TARGETS) {
      const oldest = this.targets.keys().next().value as string;
      this.targets.delete(oldest);
      for (const [p] of this.originals) if (p.endsWith(oldest)) this.originals.delete(p);
    }
    return proxyUrl;
  }

  target(id: string): Target | undefined {
    return this.targets.get(id);
  }

  /** The caller's URL behind a proxy callback URL, or null when it is not one of ours. */
  original(proxyUrl: string): string | null {
    return this.originals.get(proxyUrl) ?? null;
  }
}
