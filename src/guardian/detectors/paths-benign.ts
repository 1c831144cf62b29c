import { childrenOf, type StringSite } from "./scan.js";

/*
 * (Tenth round, "fp10") Writing the project's own environment file: `write_file web/.env.production` with
 * `NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_live_…`. Reading an env file hands its secrets to the model; writing one
 * hands over nothing. What a write there can do is plant a line that runs code or moves traffic the next time the app
 * starts: `NODE_OPTIONS=--require /tmp/x.js`, `LD_PRELOAD=…`, `HTTPS_PROXY=http://…`, `OPENAI_BASE_URL=https://…`. So a
 * write passes when:
 *   - the path is relative, inside the working tree (no `..`, no home, no variable);
 *   - the call's content is plain assignments, one a line (`KEY=value`, `export KEY=value`, comments, blank lines),
 *     64 lines at most;
 *   - no key is one that loads code, changes where programs are looked up or proxies traffic (NODE_OPTIONS, LD_*,
 *     DYLD_*, PYTHONPATH, BASH_ENV, PATH, *_PROXY, GIT_SSH_COMMAND, EDITOR …);
 *   - no value is a URL to a host of its own (anything but localhost, a loopback address or a one-label service name
 *     such as `db` or `redis`), a command substitution or a backquote.
 * A secret in the content is still judged by the secrets detectors as for any write.
 */

const HOOK_KEY = /^(?:NODE_OPTIONS|NODE_PATH|LD_[A-Z_]+|DYLD_[A-Z_]+|PYTHON(?:PATH|STARTUP|INSPECT|HOME|USERBASE)|PERL5(?:OPT|LIB)|RUBY(?:OPT|LIB)|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|BASH_ENV|ENV|PROMPT_COMMAND|PATH|SHELL|GIT_[A-Z_]+|SSH_ASKPASS|SUDO_ASKPASS|EDITOR|VISUAL|PAGER|BROWSER|[A-Z_]*PROXY|NPM_CONFIG_[A-Z_]+|PIP_[A-Z_]+|[A-Z_]*REGISTRY[A-Z_]*|[A-Z_]*INDEX_URL)$/;
const ASSIGNMENT = /^(?:export[ \t]{1,4})?([A-Za-z_][A-Za-z0-9_]{0,127})[ \t]{0,4}=[ \t]{0,4}(.{0,4096})$/;
const URL_HOST = /\b[a-z][a-z0-9+.-]{1,20}:\/\/(?:[^\s/@'"]{0,256}@)?([^\s/:?#'"]{1,253})/gi;

/** Whether a value names only local hosts (or none). */
function localOnly(value: string): boolean {
  URL_HOST.lastIndex = 0;
  for (let m: RegExpExecArray | null, n = 0; (m = URL_HOST.exec(value)) !== null && n < 16; n++) {
    const host = (m[1] as string).toLowerCase();
    if (!(host === "localhost" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === "[::1]" || /^[a-z0-9_-]{1,63}$/.test(host))) return false;
  }
  return true;
}

/**
 * (Fourteenth round, "pii14") A variable a front-end framework inlines into the client bundle (`EXPO_PUBLIC_`,
 * `NEXT_PUBLIC_`, `VITE_`, `REACT_APP_`, `NUXT_PUBLIC_`, `PUBLIC_`, `GATSBY_`): every user of the app downloads it, so
 * its value is public by the framework's design, and an https URL there is the app's public API or CDN, not a
 * redirect of the machine's own programs (those keys stay refused: `OPENAI_BASE_URL`, `*_PROXY`).
 */
const CLIENT_PUBLIC_KEY = /^(?:EXPO_PUBLIC|NEXT_PUBLIC|VITE|REACT_APP|NUXT_PUBLIC|PUBLIC|GATSBY)_[A-Z0-9_]{1,96}$/;
function publicHttps(key: string, value: string): boolean {
  return CLIENT_PUBLIC_KEY.test(key) && /^["']?https:\/\/[A-Za-z0-9.-]{1,253}(?:[/?#][^\s"'`]{0,1024})?["']?$/.test(value.trim());
}

/** A relative path inside the working tree. */
function inTree(path: string): boolean {
  const p = path.trim();
  if (p === "" || /^(?:[/\\~$%]|[A-Za-z]:)/.test(p)) return false;
  return !p.split(/[/\\]/).some((s) => s === "..");
}

/** Argument names that hold a file's new content. */
const CONTENT_KEY = /^(?:content|contents|text|data|body|file_?text|new_?content|value)$/i;

/** The one new-content argument beside the path's site (same object, a content key), or null when none or several. */
function contentBeside(site: StringSite, sites: readonly StringSite[]): string | null {
  const content = childrenOf(sites, site.path.slice(0, -1)).filter((s) => s !== site && typeof s.path[s.path.length - 1] === "string" && CONTENT_KEY.test(s.path[s.path.length - 1] as string));
  return content.length === 1 ? (content[0] as StringSite).value : null;
}

/** Whether a write to an env file at `path` is the project's plain configuration (see above); `sites` are the call's. */
export function plainEnvWrite(path: string, site: StringSite, sites: readonly StringSite[]): boolean {
  if (!inTree(path)) return false;
  const text = contentBeside(site, sites);
  if (text === null) return false;
  if (text.length > 16384) return false;
  const lines = text.split(/\r?\n/);
  if (lines.length > 64) return false;
  let assignments = 0;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = ASSIGNMENT.exec(line);
    if (m === null) return false;
    const key = (m[1] as string).toUpperCase();
    const value = m[2] as string;
    if (HOOK_KEY.test(key) || value.includes("$(") || value.includes("`") || (!localOnly(value) && !publicHttps(key, value))) return false;
    assignments++;
  }
  return assignments > 0;
}

/*
 * (Twelfth round, "tps12") A tool's credential configuration written inside the working tree with no credential in
 * it: `infra/.terraformrc` naming a credentials helper, a project `.npmrc` whose token is `${NPM_TOKEN}`, a `.pypirc`
 * with the repository's URL. Reading such a file hands its tokens to the model; writing one with none hands nothing
 * over. It passes when the path is relative and in the tree, the call has one content string, and no line gives a
 * key named for a secret (token, password, secret, `_auth`, api key, credential) a literal value (a `${VAR}`, `$VAR`,
 * `%VAR%`, `<placeholder>` or `{{ template }}` is a reference), and no line points a registry at plain `http://` on
 * another host. A secret in the content is still judged by the secrets detectors as for any write.
 */
const CREDENTIAL_CONFIG = /(?:^|[/\\])(?:\.terraformrc|terraform\.rc|\.npmrc|\.yarnrc(?:\.yml)?|\.pypirc|secrets\.ya?ml|credentials\.json)$/i;
const SECRET_KEYED = /(?:token|passw|secret|_auth|api_?key|credential)[\w"'.-]{0,40}?["']?[ \t]{0,4}[:=][ \t]{0,4}["']?([^\s"'#,]{1,512})/i;
const REFERENCE = /^(?:\$\{[A-Za-z_][A-Za-z0-9_]{0,127}\}|\$[A-Za-z_][A-Za-z0-9_]{0,127}|%[A-Za-z_][A-Za-z0-9_]{0,127}%|<[^>]{1,64}>|\{\{[^}]{1,128}\}\}|true|false|\{)$/i;
/*
 * (Eighteenth round, "cp18") The same holds for an app's `secrets.yaml` or `credentials.json` written in the tree, and
 * a value that is the address of a secret in a store is a reference too: `vault:secret/data/app#key`,
 * `op://Team/Item/field`, `awssm:prod/app/db`, an AWS Secrets Manager or SSM ARN. It names where the secret is kept
 * and grants nothing without access to the store. Web addresses (`http:`, `https:`) are not references: a webhook URL
 * is itself the credential.
 */
const STORE_ADDRESS = /^(?!https?:|ftps?:|wss?:)[a-z][a-z0-9+.-]{1,24}:(?:\/\/)?[\w.-]{1,64}(?:\/[\w.-]{1,64}){1,12}$|^arn:aws[\w-]{0,12}:(?:secretsmanager|ssm):[\w/:.-]{1,200}$/i;
const PLAIN_HTTP = /\bhttp:\/\/(?!localhost\b|127\.|\[::1\])/i;

/** Whether a write to a tool's credential configuration at `path` holds no credential (see above). */
export function plainCredentialConfigWrite(path: string, site: StringSite, sites: readonly StringSite[]): boolean {
  if (!inTree(path) || !CREDENTIAL_CONFIG.test(path.trim())) return false;
  const text = contentBeside(site, sites);
  if (text === null) return false;
  if (text.length > 16384) return false;
  const lines = text.split(/\r?\n/);
  if (lines.length > 128) return false;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    if (PLAIN_HTTP.test(line)) return false;
    const m = SECRET_KEYED.exec(line);
    if (m !== null && !REFERENCE.test(m[1] as string) && !STORE_ADDRESS.test(m[1] as string)) return false;
  }
  return true;
}

/**
 * (Nineteenth round, cp19) A source file of a neighbouring package: two levels up, then down through at least one
 * ordinary folder to a code or text file (`../../src/lib/retry.js`, a monorepo's sibling package). What a climb reaches
 * decides its harm, not the climb: a hidden folder (`.ssh`, `.aws`), a system or home root, a file named for
 * configuration or secrets, or a climb of three levels and more stays a traversal.
 */
const NEIGHBOUR_SOURCE = /^\.\.[/\\]\.\.[/\\](?:[\w-][\w.-]{0,63}[/\\]){1,8}[\w-][\w.-]{0,63}\.(?:js|mjs|cjs|ts|tsx|mts|jsx|py|go|rs|java|kt|rb|c|h|cc|cpp|hpp|cs|swift|scala|css|scss|vue|svelte|md|r)$/i;
const NOT_NEIGHBOUR = /(?:^|[/\\])(?:etc|root|home|users|var|proc|sys|dev|boot|usr|opt|srv|private|library|windows|system32|programdata|appdata)(?:[/\\]|$)|config|secret|credential|passw|token|\.env|settings|key/i;
/** Whether a relative path is a neighbouring package's source file (see above): not a traversal. */
export function neighbourSource(path: string): boolean {
  return path.length <= 600 && NEIGHBOUR_SOURCE.test(path) && !NOT_NEIGHBOUR.test(path.slice(6));
}
