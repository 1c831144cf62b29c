import { randomUUID } from "node:crypto";

/**
 * What proves a webhook post comes from the agent the caller registered with, and what the caller expects on it: a
 * token (0.3, and 1.0's legacy `token`, in `X-A2A-Notification-Token`) or 1.0's `authentication` (`scheme` and
 * `credentials`, sent as `Authorization: <scheme> <credentials>`, which takes precedence, as in the SDK's sender).
 */
export interface PushCredentials {
  token: string | null;
  authorization: string | null;
}

/** The credentials a push-notification config asks the agent to present. */
export function pushCredentials(config: Record<string, unknown>): PushCredentials {
  const auth = config.authentication as { scheme?: unknown; credentials?: unknown } | null | undefined;
  const authorization = auth && typeof auth.scheme === "string" && auth.scheme !== "" && typeof auth.credentials === "string" && auth.credentials !== "" ? `${auth.scheme} ${auth.credentials}` : null;
  const token = typeof config.token === "string" && config.token !== "" ? config.token : null;
  return { token, authorization };
}

export interface PushTarget extends PushCredentials {
  /** The caller's own callback URL, as its request gave it. */
  url: string;
  /** The guardian session of the caller that registered it. */
  session?: string;
}

const MAX_TARGETS = 10_000;

/**
 * Push notifications through the proxy: every callback URL a caller registers with a remote agent is replaced by a
 * proxy URL (`<route>/push/<id>`), so the agent's webhook posts cross the guardian before they reach the caller.
 * The table is bounded: past 10,000 registrations the oldest is forgotten (its posts are then refused with 404).
 */
export class PushRelay {
  private readonly targets = new Map<string, PushTarget>();
  /** Proxy URL → the caller's URL, to give callers their own URL back in push-config answers. */
  private readonly originals = new Map<string, string>();

  /** The proxy URL to give the agent instead of the caller's `url`. `base` is `<proxy>/<route>/push/`. */
  register(url: string, credentials: PushCredentials, base: string, session?: string): string {
    for (const [proxyUrl, original] of this.originals) {
      if (original !== url || !proxyUrl.startsWith(base)) continue;
      // The same callback registered again: its latest credentials are the ones the agent will present.
      const known = this.targets.get(proxyUrl.slice(base.length));
      if (known) Object.assign(known, credentials, session !== undefined ? { session } : {});
      return proxyUrl;
    }
    const id = randomUUID();
    const proxyUrl = base + id;
    this.targets.set(id, { url, ...credentials, ...(session !== undefined ? { session } : {}) });
    this.originals.set(proxyUrl, url);
    if (this.targets.size > MAX_TARGETS) {
      const oldest = this.targets.keys().next().value as string;
      this.targets.delete(oldest);
      for (const [p] of this.originals) if (p.endsWith(oldest)) this.originals.delete(p);
    }
    return proxyUrl;
  }

  target(id: string): PushTarget | undefined {
    return this.targets.get(id);
  }

  /** The caller's URL behind a proxy callback URL, or null when it is not one of ours. */
  original(proxyUrl: string): string | null {
    return this.originals.get(proxyUrl) ?? null;
  }
}
