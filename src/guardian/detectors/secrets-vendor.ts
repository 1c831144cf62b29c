/*
 * (fp26) A vendor's key to the vendor's own domain. `audience.ts` knows, for some forty credential formats, the hosts
 * each is issued for; a format it has no entry for (a Shippo, Airtable, Doppler, Buildkite token…) was never "used
 * as meant", so a call of that vendor's own API with its own key in the `Authorization` header was refused as a
 * secret leaving. The format's finding code names its issuer (`secrets.shippo_token`): a header credential of that
 * format, in a call whose every URL is https on the vendor's own registrable domain — the vendor's name as the
 * domain's label, alone or with the affixes SaaS domains take (`goshippo.com`, `getpostman.com`, `squareup.com`,
 * `braintreegateway.com`) — is how that API is called.
 *
 * Leaves alone: a key in a body, a URL or a message text (judged as before); a host whose label only contains the
 * name among other words (`shippo-keys.example`, `postman-share.example`); a vendor stem shorter than four letters;
 * formats named for no vendor (`jwt`, `bearer_token`, `credential`); formats audience.ts already maps.
 * Pure string tests, bounded: labels of 63 characters at most.
 */

/** What a format's code adds after the issuer's name (`_token`, `_personal_key`, `_app_password`…). */
const KIND = /_(?:personal_)?(?:access_)?(?:api_)?(?:token|key|secret|secret_key|client_secret|app_password|session|origin_ca_key|access_key)$/;
/** Formats whose code names no one vendor's domain. */
const NO_VENDOR = new Set(["jwt", "bearer", "x_bearer", "authorization", "credential", "age", "meta", "facebook", "google", "google_oauth", "aws", "alibaba", "bedrock", "openshift", "onepassword", "harness", "readme"]);

/** The issuer's name in a finding code (`secrets.shippo_token` → `shippo`), or null. */
export function vendorOf(type: string): string | null {
  if (!type.startsWith("secrets.")) return null;
  const base = type.slice(8).replace(KIND, "");
  if (NO_VENDOR.has(base)) return null;
  const name = base.replace(/_/g, "");
  return /^[a-z0-9]{4,30}$/.test(name) ? name : null;
}

/** The label a host is registered under (`api.goshippo.com` → `goshippo`; `x.co.uk` style second levels skipped). */
function registeredLabel(host: string): string {
  const labels = host.toLowerCase().split(".");
  if (labels.length < 2) return "";
  const twoLevel = labels.length >= 3 && (labels[labels.length - 2] as string).length <= 3 && (labels[labels.length - 1] as string).length === 2;
  return labels[labels.length - (twoLevel ? 3 : 2)] ?? "";
}

/** Whether a host is on the domain of the vendor a credential format names. */
export function vendorDomain(type: string, host: string): boolean {
  const vendor = vendorOf(type);
  if (vendor === null) return false;
  const label = registeredLabel(host);
  if (label.length > 63 || !label.includes(vendor)) return false;
  const rest = label.split(vendor);
  if (rest.length !== 2) return false;
  return /^(?:|go|get|use|try|join|my)$/.test(rest[0] as string) && /^(?:|app|hq|api|up|io|gateway|cloud)$/.test(rest[1] as string);
}
