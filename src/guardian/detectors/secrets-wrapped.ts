import { namedSecretValue } from "./secrets-context.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * A secret a wrapper object holds under a generic `value` (ninth round): what infrastructure tools print when asked
 * for their values — `terraform output -json` (`"db_password": {"sensitive": true, "value": "…"}`), AWS SSM's
 * `get-parameter --with-decryption` (`{"Name": "/prod/api_token", "Value": "…"}`), a Kubernetes env list in JSON
 * (`{"name": "DB_PASSWORD", "value": "…"}`), Vault's and secret managers' `{"key": "…", "value": "…"}` pairs. The name
 * is the object's own key or a `name`/`key` beside the value, in the same object; the value is then judged as a named
 * field's would be (secrets-context.ts: a credential noun ending the name, not public, not an id; a random-looking
 * value). Terraform's own `"<sensitive>"` and masked values are no secret. Read in JSON text (a tool result); at most
 * 64 values per string, each looking back 256 characters at most.
 */

const VALUE = /"[Vv]alue"[ \t]{0,4}:[ \t]{0,4}"([^"\\\n]{10,1024})"/g;
/** The object's own key (`"db_password": {`), or a `name`/`key` field in it (`"Name": "/prod/api_token"`). */
const OWN_KEY = /"([^"\\\n{}]{1,64})"[ \t]{0,4}:[ \t\r\n]{0,16}\{[^{}]{0,240}$/;
const NAME_FIELD = /"(?:[Nn]ame|[Kk]ey|[Pp]arameter[Nn]ame|[Ss]ecret[Nn]ame)"[ \t]{0,4}:[ \t]{0,4}"([^"\\\n]{1,128})"[^{}]{0,200}$/;

export function detectWrappedValues(site: StringSite, found: Detection[]): void {
  const v = site.value;
  if (v.length < 24 || (!v.includes('"value"') && !v.includes('"Value"'))) return;
  VALUE.lastIndex = 0;
  for (let m: RegExpExecArray | null, n = 0; (m = VALUE.exec(v)) !== null && n < 64; n++) {
    const value = m[1] as string;
    const back = v.slice(Math.max(0, m.index - 256), m.index);
    const own = NAME_FIELD.exec(back) ?? OWN_KEY.exec(back);
    if (own === null) continue;
    // A path-like name (`/prod/api_token`, `secret/data/db_password`): its last segment.
    const name = (own[1] as string).slice((own[1] as string).lastIndexOf("/") + 1);
    if (!namedSecretValue(name, value)) continue;
    const start = m.index + m[0].length - 1 - value.length;
    if (found.some((d) => d.path === site.path && d.start < start + value.length && start < d.end)) continue;
    found.push({ type: "secrets.credential", path: site.path, start, end: start + value.length });
  }
}
