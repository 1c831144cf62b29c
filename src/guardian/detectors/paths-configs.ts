import { HOME } from "./paths-stores.js";

/*
 * (Fourteenth round, "cps14") Sensitive paths read by what the file is for, not by one app's folder
 * (docs/detection.md, "Fourteenth round: paths by what the file is for, commands by what they reach"). Called by
 * paths.ts's sensitiveKind after the older families, on a path already in its judged form:
 *
 * - **an app's production configuration**: a configuration file (JSON, YAML, TOML, INI, properties, XML, `.config`,
 *   `.env`) whose name pairs a configuration word with the production environment — `appsettings.Production.json`
 *   (.NET), `config.production.json` (Ghost, node-config), `application-prod.yml` (Spring), `settings.prod.toml`,
 *   `secrets.production.yaml`, or `production.json` in a `config` folder. Every framework keeps its production
 *   connection strings and keys there; the development and test forms, code (`webpack.prod.js`) and compose files
 *   pass. A write of one is not a read (paths.ts skips writes of these);
 * - **server files whose format exists to hold a login**: SSSD's `sssd.conf` (the directory's bind password), Tomcat's
 *   `tomcat-users.xml`, LDAP clients' `*.secret` and `nslcd.conf`, Samba's `smbpasswd`, `secrets.tdb` and `passdb.tdb`,
 *   rsync's `*.secrets`, davfs2's `secrets`, mount credentials (`.smbcredentials`, `cifs-credentials`), mail relays'
 *   client passwords (`msmtprc`, `.fetchmailrc`, exim's `passwd.client`); Oracle's wallets (`cwallet.sso`, the
 *   auto-login wallet, and `ewallet.p12`) wherever they are; PostgreSQL's password file on Windows
 *   (`AppData\Roaming\postgresql\pgpass.conf`, the `~/.pgpass` of Windows);
 * - **a device's or a service's own private key in its state folder**: a `.pem` or `.key` under `/var/lib/<service>/`
 *   whose name is not a public half or a certificate (`/var/lib/mender/mender-agent.pem`); and every file of a `keys`,
 *   `private` or `secrets` folder of a system folder read by a glob (`cat /var/lib/aziot/keyd/keys/*`);
 * - **what a tool keeps in the home folder by the file's role, not its app**: a hidden file directly in the home named
 *   for credentials (`~/.youtube-upload-credentials.json`, `~/.foo_token`); an environment file named `*.env` in a
 *   hidden folder of the home or an app's data folder (`~/.config/twitch-cli/.twitch-cli.env`); a history file or
 *   database (`*_history`, `*_repl_history`, `*.history`, `history.txt`, `history.db`, `history.sqlite`) there — shells and REPLs keep the connection strings and
 *   passwords typed into them; a cookie jar (`cookie`, `cookies.txt`, `cookiejar`) there; a client's saved connections
 *   (`connections.json`, `connections.xml`) there; GitHub Copilot's OAuth token stores (`github-copilot/apps.json`,
 *   `hosts.json`). Settings, caches, logs, extensions' code and source files pass.
 *
 * Every test is a regex on one segment or a bounded regex on the whole path (the path is at most 4,096 characters).
 */

const CONFIG_EXT = String.raw`(?:json|jsonc|ya?ml|toml|ini|cfg|conf|properties|xml|config|env|php)`;
/** A configuration word paired with the production environment, in either order. */
const PRODUCTION_CONFIG = new RegExp(
  String.raw`^(?:(?:appsettings|config|configuration|settings|application|app|secrets?|credentials|database|db|parameters|params|connections?|env|environment|local)[._-](?:production|prod|prd|live)|(?:production|prod)[._-](?:config|settings|secrets?|credentials|env|database))\.${CONFIG_EXT}$`,
  "i",
);
/** `config/production.json` (node-config, Rails' credentials folder, Phoenix's `prod.secret.exs`). */
const PRODUCTION_IN_CONFIG = new RegExp(String.raw`(?:^|[/\\])(?:config|configs|conf|settings)[/\\](?:production|prod|prd)(?:\.secret)?\.(?:${CONFIG_EXT.slice(3, -1)}|exs|key)$`, "i");
/**
 * (Seventeenth round) A configuration file inside a configuration folder's production folder (`config/prod/main.properties`,
 * `resources/config/production/app.yml`, `conf/prd/db.ini`): the production settings of an app that splits them by
 * folder, not by name. Logging settings pass.
 */
const PRODUCTION_FOLDER = new RegExp(String.raw`(?:^|[/\\])(?:config|configs|conf|settings|resources)[/\\](?:production|prod|prd)[/\\][^/\\]{1,80}\.${CONFIG_EXT}$`, "i");
const LOGGING = /^(?:log|logs|logging|logback|log4j2?|logger|jul)[-_.]/i;
/** Samples, examples and templates of it are published on purpose. */
const SAMPLE = /(?:^|[-_.])(?:example|sample|template|dist|tmpl|tpl|default|defaults|schema)(?:[-_.]|$)/i;

/** Whether a path is an app's production configuration (see above). */
export function productionConfig(p: string): boolean {
  if (p.length > 4096) return false;
  const base = p.slice(Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\")) + 1);
  if (SAMPLE.test(base.replace(/\.[^.]{1,12}$/, ""))) return false;
  return PRODUCTION_CONFIG.test(base) || PRODUCTION_IN_CONFIG.test(p) || (PRODUCTION_FOLDER.test(p) && !LOGGING.test(base));
}

/*
 * (Twentieth round, "sec20") Reading the project's own production configuration, inside the working tree: a relative
 * path that does not climb (`config/production.yml`, `deploy/app.prod.yaml`). The agent opening the project it works
 * on is its ordinary job; what the file holds is judged on the way back (a key or a password in the result is cut
 * there, and the session's flow labels follow it out), while a file that holds only references (`vault:…`,
 * `${VAR}`) or masked values passes. A deployed server's file (an absolute path, a drive, a share, the home), a climb
 * out of the tree, and a file named for its secrets (`secrets.prod.yml`, `credentials-production.json`, `prod.env`)
 * stay refused at the call.
 */
const OUTSIDE_TREE = /^(?:[/\\~$%]|[a-z][a-z0-9+.-]{0,20}:)/i;
const CLIMB = /(?:^|[/\\])\.\.(?:[/\\]|$)|%2e|%252e/i;
const NAMED_SECRET = /(?:^|[-_.])(?:secrets?|credentials?|creds|passwords?|keys?|tokens?|vault|env)(?:[-_.]|$)/i;
/** Whether a read of this production configuration stays in the project's own tree (see above). */
export function ownTreeConfigRead(p: string): boolean {
  if (p.length > 4096 || !productionConfig(p)) return false;
  if (OUTSIDE_TREE.test(p) || CLIMB.test(p)) return false;
  const base = p.slice(Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\")) + 1);
  return !NAMED_SECRET.test(base);
}

/** Server files whose format exists to hold a login (see above). */
const LOGIN_FILE = /(?:^|[/\\])(?:sssd[/\\](?:conf\.d[/\\][^/\\]{1,80}\.conf|sssd\.conf)|tomcat-users\.xml|(?:ldap|pam_ldap|libnss-ldap)\.secret|nslcd\.conf|samba[/\\]smbpasswd|smbpasswd|(?:secrets|passdb)\.tdb|rsyncd?\.secrets|davfs2[/\\]secrets|\.?smbcredentials|cifs-credentials|\.?msmtprc|\.fetchmailrc|exim4[/\\]passwd\.client|cwallet\.sso|ewallet\.p12|AppData[/\\]Roaming[/\\]postgresql[/\\]pgpass\.conf|%APPDATA%[/\\]postgresql[/\\]pgpass\.conf)$/i;

/** A private key in a service's state folder: not a public half, a certificate or a chain. */
const STATE_KEY = /^\/var\/lib\/[^/]{1,100}\/(?:[^/]{1,100}\/){0,5}[^/]{1,120}\.(?:pem|key)$/i;
const NOT_KEY_DIR = /\/(?:ca-certificates|ca-trust|certs|trust|anchors)\//i;
const PUBLIC_HALF = /(?:^|[-_.])(?:pub|public|pubkey|cert|certs|certificate|crt|ca|cacert|chain|fullchain|bundle|root|trust|trusted|csr)(?:[-_.]|$)/i;
/** Every file of a system folder's `keys`, `private` or `secrets` folder, by a glob. */
const SYSTEM_KEYS_GLOB = /^\/(?:etc|var|srv|opt|data)\/(?:[^/]{1,100}\/){0,6}(?:keys|private|secrets)\/(?:\*|\*\.\*|\.\*|\*\.(?:pem|key|der))$/i;

/** Roots under which a tool keeps its own files: a hidden folder of the home, or an app's data folder. */
const TOOL_ROOT = new RegExp(String.raw`^(?:${HOME}|%APPDATA%|%LOCALAPPDATA%)[/\\](?:\.[^/\\]{1,64}|AppData[/\\](?:Roaming|Local)[/\\][^/\\]{1,80}|Library[/\\]Application Support[/\\][^/\\]{1,80}|[^/\\]{1,80}(?=[/\\]))(?:[/\\][^/\\]{1,120}){0,8}$`, "i");
const DIRECT_HIDDEN = new RegExp(String.raw`^${HOME}[/\\](\.[^/\\]{1,120})$`, "i");
const CREDENTIAL_WORD = /(?:^|[-_.])(?:credentials?|creds|secrets?|passwords?|(?:access|refresh|auth|oauth|api|session)?[-_]?tokens?|api[-_]?keys?)(?:[-_.]|$)/i;
const ENV_FILE = /^[^/\\]{1,100}\.env$/i;
const HISTORY_FILE = /^(?:[^/\\]{1,80}[._-](?:repl[._-])?history|history\.txt|[^/\\]{1,80}_history\.(?:txt|db|sqlite)|history\.(?:db|sqlite3?))$/i;
const COOKIE_FILE = /^(?:cookies?|cookies?\.(?:txt|json|dat|jar)|cookiejar(?:\.txt)?|\.cookies?)$/i;
const CONNECTIONS_FILE = /^(?:connections|saved[-_]?connections)\.(?:json|xml)$/i;
const COPILOT = /(?:^|[/\\])github-copilot[/\\](?:apps|hosts)\.json$/i;
/** Where a tool keeps code, caches and logs, not its logins. */
const NOT_TOOL_STORE = /[/\\](?:\.cache|Cache|Caches|node_modules|site-packages|extensions|\.vscode[/\\]extensions|logs?|tmp|\.npm|\.cargo[/\\]registry|\.rustup|\.m2[/\\]repository|\.gradle[/\\]caches)[/\\]/i;
const SOURCE = /\.(?:js|mjs|cjs|ts|tsx|jsx|py|rb|go|rs|java|kt|lua|php|sh|ps1|md|html|css|map)$/i;

/** The kind of sensitive path one of these families finds, or null. */
export function configKind(p: string): string | null {
  if (p.length > 4096) return null;
  const base = p.slice(Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\")) + 1);
  if (productionConfig(p)) return "sensitive_path.credential_file";
  if (LOGIN_FILE.test(p) && !SAMPLE.test(base.replace(/\.[^.]{1,12}$/, ""))) return "sensitive_path.credential_file";
  if (COPILOT.test(p)) return "sensitive_path.credential_file";
  if (STATE_KEY.test(p) && !NOT_KEY_DIR.test(p) && !PUBLIC_HALF.test(base.replace(/\.(?:pem|key)$/i, ""))) return "sensitive_path.credential_file";
  if (SYSTEM_KEYS_GLOB.test(p)) return "sensitive_path.credential_file";
  const direct = DIRECT_HIDDEN.exec(p);
  if (direct && CREDENTIAL_WORD.test(direct[1] as string) && !SOURCE.test(base)) return "sensitive_path.credential_file";
  if (!TOOL_ROOT.test(p) || NOT_TOOL_STORE.test(p) || SOURCE.test(base)) return null;
  // Only below a hidden folder of the home or an app's data folder: a project's own `prod.env` is judged elsewhere.
  if (!/[/\\]\.[^/\\.][^/\\]{0,63}[/\\]|AppData[/\\]|%APPDATA%|%LOCALAPPDATA%|Library[/\\]Application Support[/\\]/i.test(p)) return null;
  if (ENV_FILE.test(base) && !SAMPLE.test(base.slice(0, -4))) return "sensitive_path.dotenv";
  if (HISTORY_FILE.test(base)) return "sensitive_path.credential_file";
  if (COOKIE_FILE.test(base)) return "sensitive_path.app_session";
  if (CONNECTIONS_FILE.test(base)) return "sensitive_path.credential_file";
  return null;
}

/** Literals one of these paths holds (for paths.ts's prefilter), besides those it has already. */
// (Not "prod" alone: its pairs are in "project" and "module", and the prefilter would pass nearly every path.)
export const CONFIGS_HINTS = ["appsettings", "production", "/prod/", "\\prod\\", "/prd/", ".prod", "_prod", "prod.", "prod-", "prod_", "sssd", "tomcat-users", "nslcd", "smbpasswd", ".tdb", "rsyncd", "davfs2", "smbcredentials", "cifs-credentials", "msmtprc", "fetchmailrc", "passwd.client", "cwallet", "ewallet", "pgpass", "copilot", "/var/lib/", ".env", "history", "cookie", "connections", "%appdata%", "%localappdata%", "..%2f", "..%5c", "%252e"];

/*
 * A URI's path that climbs out of its root: an encoded climb in a web address (`..%2f`, `..%5c`, `%2e%2e/`,
 * double-encoded `%252e%252e`) — nobody writes a path like that but to get past a server's check — and any climb of
 * two levels or more in a resource URI of another scheme (`notebook://shared/../../../../home/u/.netrc`), whose path
 * the server resolves on its disk. A literal `/../` in a web address is resolved by the client before it is sent and
 * passes; so do encoded slashes without dots (`projects/acme%2Fweb`).
 */
const URI = /^\s*([a-z][a-z0-9+.-]{1,30}):\/\/([^/?#\s]{0,255})([^\s]{0,4096})/i;
const WEB = /^(?:https?|wss?|ftp)$/i;
const ENCODED_CLIMB = /(?:%2e|%252e|\.){2}(?:%2f|%5c|%252f|%255c)|(?:%2e|%252e){2}[/\\]/i;

function decodedOnce(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s.replace(/%2e/gi, ".").replace(/%2f/gi, "/").replace(/%5c/gi, "\\");
  }
}

/** The path a URI's climb reaches (decoded, at most twice), or null when it does not climb out (see above). */
export function uriClimb(value: string): string | null {
  if (value.length > 4400) return null;
  const m = URI.exec(value);
  if (m === null) return null;
  const scheme = m[1] as string;
  if (/^file$/i.test(scheme)) return null;
  const rest = m[3] as string;
  const web = WEB.test(scheme);
  if (web && !ENCODED_CLIMB.test(rest)) return null;
  if (!web && !rest.includes("..")) return null;
  let path = decodedOnce(rest);
  if (/%2e|%2f|%5c/i.test(path)) path = decodedOnce(path);
  // A run of two or more `..` segments anywhere in the path or a query value.
  const segments = path.split(/[/\\?&=#;]/, 256);
  let run = 0;
  for (const s of segments) {
    if (s === "..") {
      if (++run >= 2) return path;
    } else if (s !== "" && s !== ".") run = 0;
  }
  return null;
}
