import { HOME } from "./paths-stores.js";

/*
 * (Eleventh round, "cps11") Families of sensitive paths read by what the file holds, not by one app's folder
 * (docs/detection.md, "Eleventh round: commands by what they reach, files by what they hold"). Called by
 * paths.ts's sensitiveKind after the older families, on a path already in its judged form (a drive path with `\`):
 *
 * - **a deployed web app's or data service's own configuration**, the file that holds its database password and
 *   secret key: `wp-config.php`, Joomla's `configuration.php`, MediaWiki's `LocalSettings.php`, Drupal's
 *   `sites/<site>/settings.php`, Magento's `app/etc/env.php`, Nextcloud's `config/config.php`, a PHP app's
 *   `config.php` at its root (Moodle, phpBB), IIS's `web.config`, Airflow's `airflow.cfg`, Superset's
 *   `superset_config.py`, Gitea's and Forgejo's `app.ini`, Grafana's `grafana.ini`, Odoo's `odoo.conf`, a Rails app's
 *   `config/master.key` — where it is deployed (`/var/www`, `/srv`, `/opt`, `/etc`, `/usr/share/nginx`,
 *   `C:\inetpub`, a home's `public_html` or `airflow`). A project's own copy (a relative path in the working tree)
 *   and the shipped samples (`wp-config-sample.php`, `*.example`) pass;
 * - **password managers' vaults and exports**: any file in a password manager's data folder (Bitwarden, 1Password,
 *   Enpass, Dashlane, NordPass, Keeper, RoboForm, LastPass's `~/.lpass`) — not its logs or settings —
 *   and the vault and export formats wherever they are (`.enpassdb`, `.opvault`, `.1pif`, `.1pux`, `.psafe3`,
 *   `.agilekeychain`, `bitwarden_export*.json`);
 * - **game launchers' saved logins** (what every infostealer takes): Steam's `config/config.vdf`, `loginusers.vdf` and
 *   sentry files (`ssfn*`), Epic's `GameUserSettings.ini` under its launcher's saved config, Minecraft's launcher
 *   accounts, Riot's private settings. Game files, library lists (`libraryfolders.vdf`), manifests and logs pass;
 * - **credential dumps by their name**: an LSASS minidump (`lsass*.dmp`), exported Kerberos tickets (`*.kirbi`), an
 *   `ntds.dit` copy anywhere, registry hive copies (`sam.save`, `security.save`, `system.hiv`…), hives read through a
 *   shadow copy (`HarddiskVolumeShadowCopy1\Windows\System32\config\SAM`);
 * - **signing keys by their name**, in any folder (a project's too: a key that signs releases or firmware is not a
 *   fixture): a private key file (`.pem`, `.key`, `.der`, `.pk8`) named for signing (`signing`, `sign`, `secure_boot`,
 *   `codesign`, `release`), `cosign.key`, `minisign.key`, Android's `.pk8`. Public halves (`pub`, `public`, `verify`,
 *   `cert`), AOSP's published `testkey` and a test folder's keys pass;
 * - **ML and developer platforms' API key files in the home folder**: `~/.kaggle/kaggle.json`, ngrok's `ngrok.yml`,
 *   `~/clearml.conf`, `~/.modal.toml`, `~/.comet.config`, JFrog's `jfrog-cli.conf*`, `~/.transifexrc`;
 * - **VPN and dial-up secrets**: an OpenVPN profile (`*.ovpn`, which usually embeds the client key), files under
 *   `/etc/openvpn/` but its scripts, IPsec's `ipsec.secrets`, PPP's `chap-secrets`/`pap-secrets`. Samples pass;
 * - **Ansible's vault password file** by its usual names anywhere (`vault_pass.txt`, `.vault_password`,
 *   `vault-password-file`); a script that fetches it (`vault_pass.py`, `.sh`) passes.
 *
 * Every test is a regex anchored on the last segment or at the start, over a path of at most 4 KB.
 */

/** The last segment of a path (either separator). */
function baseOf(p: string): string {
  return p.slice(Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\")) + 1);
}

/** Where a web app or a data service is deployed on a server. */
const DEPLOYED = /^(?:\/var\/www|\/srv|\/opt|\/etc|\/usr\/share\/nginx|\/usr\/local\/www|\/var\/lib|\/home\/[^/]{1,64}\/(?:public_html|www|htdocs|airflow)|\/root\/airflow|~\/(?:public_html|airflow)|[A-Za-z]:\\inetpub)(?:[/\\]|$)/i;
/** The configuration files that hold a web app's or a service's database password and secret key (the last segments). */
const APP_SECRET_CONFIG = /(?:^|[/\\])(?:wp-config\.php|configuration\.php|LocalSettings\.php|sites[/\\][^/\\]{1,64}[/\\]settings(?:\.local)?\.php|app[/\\]etc[/\\]env\.php|config[/\\]config\.php|web\.config|airflow\.cfg|superset_config\.py|(?:gitea|forgejo)[/\\](?:conf[/\\])?app\.ini|grafana\.ini|odoo\.conf|config[/\\](?:master\.key|credentials[/\\][^/\\]{1,40}\.key))$/i;
/** A PHP app's `config.php` at its root: `/var/www/moodle/config.php`, `/var/www/html/config.php`. */
const ROOT_CONFIG_PHP = /^(?:\/var\/www|\/srv\/www|\/srv\/http|\/usr\/share\/nginx)(?:\/(?:html|htdocs|public_html|public))?(?:\/[^/]{1,64})?\/config\.php$/i;
const SAMPLE = /(?:^|[-_.])(?:sample|example|dist|template|default|tmpl|orig)(?:[-_.]|$)/i;

function appConfig(p: string): boolean {
  if (!DEPLOYED.test(p) || SAMPLE.test(baseOf(p))) return false;
  return APP_SECRET_CONFIG.test(p) || ROOT_CONFIG_PHP.test(p);
}

/** A password manager's data folder under an app-data root, and any file in it but logs and settings. */
const VAULT_APP = /(?:^|[/\\])(?:\.config|AppData[/\\](?:Roaming|Local)|Library[/\\]Application Support|Library[/\\]Group Containers[/\\][^/\\]{1,80}|\.var[/\\]app[/\\][^/\\]{1,80}[/\\]config)[/\\](?:Bitwarden|1Password|Enpass|Dashlane|NordPass|Keeper(?: Password Manager)?|RoboForm)[/\\](?:[^/\\]{1,100}[/\\]){0,4}[^/\\]{1,120}$|(?:^|[/\\])\.lpass(?:[/\\].*)?$/i;
const VAULT_NOT = /[/\\](?:logs?|crashpad|Crash Reports|Cache|Code Cache|GPUCache|blob_storage)(?:[/\\]|$)|\.(?:log|ini)$|(?:^|[/\\])(?:settings|preferences|window-state)\.json$/i;
const VAULT_FILE = /\.(?:enpassdb|opvault|1pif|1pux|psafe3|agilekeychain)$|^bitwarden_(?:encrypted_)?export[^/\\]{0,60}\.(?:json|csv)$/i;

/** Game launchers' saved logins. */
const LAUNCHER_LOGIN = /(?:^|[/\\])Steam[/\\](?:config[/\\](?:config|loginusers)\.vdf|ssfn[^/\\]{0,40})$|(?:^|[/\\])EpicGamesLauncher[/\\]Saved[/\\]Config[/\\][^/\\]{1,40}[/\\]GameUserSettings\.ini$|(?:^|[/\\])\.?minecraft[/\\]launcher_accounts(?:_microsoft_store)?\.json$|(?:^|[/\\])Riot Client[/\\]Data[/\\]RiotGamesPrivateSettings\.yaml$/i;

/** Credential dumps by their name, and hives read through a shadow copy. */
const DUMP_NAME = /^(?:lsass[^/\\]{0,40}\.dmp|[^/\\]{1,120}\.kirbi|ntds\.dit|(?:sam|security)\.(?:save|sav|hiv|hive|bak)|system\.(?:hiv|hive))$/i;
const SHADOW_HIVE = /HarddiskVolumeShadowCopy\d{1,4}[/\\](?:Windows[/\\]System32[/\\]config[/\\](?:SAM|SYSTEM|SECURITY)|Windows[/\\]NTDS[/\\]ntds\.dit)$/i;

/** A signing key by its name: a private key's extension and a name that says it signs. */
const SIGNING_KEY = /^(?:[^/\\]{0,80}(?:sign|signing|secure[-_]?boot|codesign|release)[^/\\]{0,80}\.(?:pem|key|der|pk8)|cosign\.key|minisign\.key|[^/\\]{1,80}\.pk8)$/i;
const NOT_PRIVATE = /(?:^|[-_.])(?:pub|public|pubkey|verify|verification|verifier|cert|certificate|crt|csr)(?:[-_.]|$)|^testkey\.|(?:^|[-_.])(?:test|example|sample|dummy|fake)(?:[-_.]|$)/i;
const TEST_TREE = /(?:^|[/\\])(?:tests?|fixtures?|testdata|test-data|__tests__|spec|examples?|samples?)[/\\]/i;

/** ML and developer platforms' API key files in the home folder. */
const HOME_API_KEY = new RegExp(String.raw`^${HOME}[/\\](?:\.kaggle[/\\]kaggle\.json|\.ngrok2[/\\]ngrok\.yml|(?:\.config|Library[/\\]Application Support|AppData[/\\]Local)[/\\]ngrok[/\\]ngrok\.yml|clearml\.conf|\.clearml\.conf|\.modal\.toml|\.comet\.config|\.jfrog[/\\]jfrog-cli\.conf(?:\.v\d{1,2})?|\.transifexrc)$`, "i");

/** VPN profiles and dial-up secrets. */
const VPN = /^\/etc\/(?:openvpn\/(?:[^/]{1,100}\/){0,3}[^/]{1,120}|ipsec\.secrets|strongswan\/ipsec\.secrets|ipsec\.d\/private\/[^/]{1,120}|swanctl\/private\/[^/]{1,120}|ppp\/(?:chap|pap)-secrets)$/i;
const VPN_NOT = /(?:^|\/)(?:update-resolv-conf|update-systemd-resolved|README[^/]{0,20}|[^/]{1,80}\.(?:sh|md|txt\.example))$|\/etc\/openvpn\/?$/i;
const OVPN = /\.ovpn$/i;

/** Ansible's vault password file by its usual names. */
/**
 * (Twentieth round) A desktop application's saved sign-in, by what its file says it keeps: a file in a per-user
 * application-data folder (`AppData`, `Library/Application Support`, `.config`, `.local/share`) whose name is a login,
 * sign-in, session or auth state, token or cookie store (`LoginState.xml`, `session_token.json`, `auth-cache.dat`).
 * Reading it lets another machine act as the signed-in user. A project's source file of the same name (outside those
 * folders) and the app's logs pass.
 */
const APP_DATA = /(?:^|[/\\])(?:AppData[/\\](?:Roaming|Local|LocalLow)|Library[/\\]Application Support|\.config|\.local[/\\]share)[/\\](?:[^/\\]{1,80}[/\\]){1,5}/i;
const SIGNIN_STATE = /^(?:user[-_ ]?)?(?:login|logon|signin|sign[-_ ]in|session|auth|oauth|sso)[-_ ]?(?:state|states|token|tokens|cache|info|data|store|cookies?)\.(?:xml|json|dat|bin|db|sqlite|ini|txt|plist|cache)$/i;

const VAULT_PASS = /^\.?(?:ansible[-_.])?vault[-_]?pass(?:word)?(?:[-_]file)?(?:\.txt)?$/i;

/** The kind of sensitive path one of these families finds, or null. */
export function appKind(p: string): string | null {
  if (p.length > 4096) return null;
  const base = baseOf(p);
  if (appConfig(p)) return "sensitive_path.credential_file";
  if ((VAULT_APP.test(p) && !VAULT_NOT.test(p)) || VAULT_FILE.test(base)) return "sensitive_path.credential_file";
  if (LAUNCHER_LOGIN.test(p)) return "sensitive_path.app_session";
  if (DUMP_NAME.test(base) || SHADOW_HIVE.test(p)) return "sensitive_path.system";
  if (SIGNING_KEY.test(base) && !NOT_PRIVATE.test(base) && !TEST_TREE.test(p)) return "sensitive_path.credential_file";
  if (HOME_API_KEY.test(p)) return "sensitive_path.credential_file";
  if ((VPN.test(p) && !VPN_NOT.test(p)) || (OVPN.test(base) && !SAMPLE.test(base) && !TEST_TREE.test(p))) return "sensitive_path.credential_file";
  if (VAULT_PASS.test(base)) return "sensitive_path.credential_file";
  if (SIGNIN_STATE.test(base) && APP_DATA.test(p) && !/[/\\](?:logs?|crash\w{0,12})[/\\]/i.test(p)) return "sensitive_path.app_session";
  return null;
}

/**
 * Literals one of these paths holds (for paths.ts's prefilter), besides those it already has (`.key`, `.pem`,
 * `secret`, `cred`, `/etc/`, `.config`, `ansible`…). Only literals whose pairs of characters are rare in ordinary text.
 */
export const APP_HINTS = ["wp-config", "configuration.php", "localsettings", "settings.php", "env.php", "config.php", "web.config", "airflow", "superset_config", "app.ini", "grafana.ini", "odoo.conf",
  "bitwarden", "1password", "enpass", "dashlane", "nordpass", "keeper", "roboform", ".lpass", ".opvault", ".1pif", ".1pux", ".psafe3", "agilekeychain",
  ".vdf", "ssfn", "epicgames", "launcher_accounts", "riotgames", ".dmp", ".kirbi", "ntds", ".save", ".sav", ".hiv", ".bak", "shadowcopy", ".pk8", "kaggle", "ngrok", "clearml", ".modal", ".comet", ".jfrog", "transifex",
  ".ovpn", "openvpn", "ipsec", "swanctl", "vault_pass", "vault-pass", "vaultpass", "ssh_host", "appdata", "application support"];
