import type { Detection } from "./scan.js";

/*
 * (Twelfth round, "tps12") A credential stored in a secret store is not a credential leaving: `set_ci_variable` with
 * `key: FLY_API_TOKEN`, `value: FlyV1 …`, `masked: true`; `create_or_update_secret`, `put_secret_value`. The store is
 * built to hold it and hide it. A `secrets` finding in an outbound tool call is dropped when:
 *   - the tool's name says it writes a secret, or a CI or environment variable (`set_ci_variable`, `create_secret`,
 *     `secrets_put`, `put_secret_value`, `update_env_var`);
 *   - the credential is the whole value of the argument that holds the stored value (`value`, `secret`,
 *     `secret_value`, `secret_string`, `plaintext`), directly under the call's arguments;
 *   - a name for it is given (`key`, `name`, `secret_name`, `variable`, a vault's `path`…), and, unless the tool's
 *     name names a secret store (a secret, a vault, a key vault, a keychain, a secrets or password manager: eighteenth
 *     round, `vault_put`, `keychain_add_item`, `secretsmanager_put`), the call marks it secret (`masked`,
 *     `protected`, `sensitive`, `secret`, `is_secret`, `hidden` set true).
 * A credential anywhere else in such a call (a description, a note) is judged as in any call.
 */

const STORE_TOOL = /(?:^|[_.-])(?:set|put|create|add|update|store|save|upsert|write)(?:[_.-](?:or[_.-]update|or[_.-]create|repo|repository|project|org|organization|environment|env|ci|pipeline|actions|group|app|deployment|vault|kv|keychain))*[_.-](?:secrets?|ci[_.-]?variables?|variables?|env[_.-]?vars?|vars?|vault|keychain[_.-]?items?)(?:[_.-]value)?$|^(?:[a-z0-9]{1,20}[_.-])?(?:secrets?|vault|key[_.-]?vault|keychain|secrets?[_.-]?manager|password[_.-]?manager)(?:[_.-](?:kv2?|secrets?))?[_.-](?:set|put|create|add|update|store|write)(?:[_.-](?:secrets?|value|items?|entry))?$/i;
/** (Eighteenth round, "cp18") A store named for what it keeps: a vault, a key vault, a keychain, a secrets manager. */
const STORE_NOUN = /secret|vault|keychain|password[_.-]?manager/i;
const VALUE_KEY = /^(?:value|secret|secret_?value|secret_?string|plaintext|plain_?text)$/i;
// (Eighteenth round) A vault names what it stores by its path (`kv/team/app/mail`): that path is the secret's name.
const NAME_KEY = /^(?:key|name|secret_?name|secret_?id|secret_?path|path|variable|variable_?name|var_?name|env_?var)$/i;
const FLAG_KEY = /^(?:masked|mask|protected|sensitive|secret|is_?secret|hidden|encrypted)$/i;

export function storedSecrets(message: Record<string, unknown>, found: Detection[]): Detection[] {
  if (found.length === 0 || message.method !== "tools/call") return found;
  const params = message.params as Record<string, unknown> | undefined;
  const tool = params?.name;
  const args = params?.arguments as Record<string, unknown> | undefined;
  if (typeof tool !== "string" || tool.length > 128 || args === null || typeof args !== "object" || !STORE_TOOL.test(tool)) return found;
  const keys = Object.keys(args).slice(0, 64);
  if (!keys.some((k) => NAME_KEY.test(k) && typeof args[k] === "string")) return found;
  if (!STORE_NOUN.test(tool) && !keys.some((k) => FLAG_KEY.test(k) && args[k] === true)) return found;
  return found.filter((d) => {
    if (d.path.length !== 3 || d.path[0] !== "params" || d.path[1] !== "arguments") return true;
    const key = d.path[2];
    if (typeof key !== "string" || !VALUE_KEY.test(key)) return true;
    const v = args[key];
    return !(typeof v === "string" && d.start <= 16 && v.length - d.end <= 8);
  });
}
