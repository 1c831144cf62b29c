import { HOME } from "./paths-stores.js";

/*
 * (Thirteenth round, "cps13") Families of sensitive paths read by the structure every app of a kind shares, not by one
 * app's folder (docs/detection.md, "Thirteenth round: commands that take control away, stores by their structure").
 * Called by paths.ts's sensitiveKind after the older families, on a path already in its judged form:
 *
 * - **a Chromium engine's session stores at any depth of an app's data folder**: every Electron or WebView2 app and
 *   every Chromium browser keeps the same files — `Cookies`, `Login Data`, `Web Data`, `Local Storage`, `Session
 *   Storage`, `IndexedDB` — under its data folder, however deep its profile lies (`Notion/Partitions/notion/Cookies`,
 *   `Arc/User Data/Default/Cookies`, Teams' `EBWebView/WV2Profile_tfw/Cookies` inside its container). And a browser
 *   extension's own storage (`Local Extension Settings/<id>`, `Sync Extension Settings/<id>`, an extension's
 *   `IndexedDB`), where wallets and password managers keep their vaults. Caches, code caches, preferences, an
 *   extension's code (`Extensions/<id>/<version>/…`) pass;
 * - **crypto wallets by their folder's form**: a folder named `*.wallet` or `wallets` under an app-data folder or a
 *   hidden folder of the home, and encrypted seed files (`*.seco`), wherever the app is;
 * - **a file named for credentials under an app's data folder**, at any depth: `launcher_msa_credentials.bin`,
 *   `oauth_credentials.json`, `session-token.dat` (the credential word a word of the name). Source code (`*.js`,
 *   `*.py`…), editors' and package managers' code folders (`extensions`, `node_modules`, `site-packages`) pass;
 * - **key stores by name in a hidden folder of the home**: a file or folder named `keystore` or `keyring`;
 * - **Windows' private-key stores**: `Microsoft\Crypto\{RSA,Keys,DSS,SystemKeys}` (machine and user keys, CNG and
 *   CryptoAPI) and `Microsoft\Vault` (the credential vault), under ProgramData or a profile;
 * - **self-hosted password managers' data**: Vaultwarden's and Bitwarden's server data (`vw-data`,
 *   `vaultwarden*`, `bitwarden_rs`, `bwdata`) — its database, keys and attachments; Passbolt's server GPG keys;
 * - **private keys in a `keys`, `private` or `secrets` folder of a system folder** (`/var/lib/<service>/keys/*.pem`):
 *   public halves and certificates by their names pass;
 * - **language runtimes' environment files in the home**: R's `~/.Renviron` (where R users keep API tokens), read as
 *   `.env` is;
 * - **Node CLIs' stores made by the `conf` package**: `<name>-nodejs/config.json` under the platform's preferences
 *   folder (macOS `Library/Preferences`, `.config`, `AppData\Roaming\<name>-nodejs\Config`), where CLIs keep their
 *   sessions;
 * - **cloudflared's tunnel credentials in its system folder** (`/etc/cloudflared/<tunnel-id>.json`, `cert.pem`), as
 *   they are already judged in the home's `.cloudflared`.
 *
 * A path is split into at most 64 segments once; every test is a comparison per segment or a regex on one segment.
 */

/** Roots of apps' data folders, as segments: `.config`, `AppData/Roaming|Local`, `Library/Application Support`… */
function appDataRoot(seg: readonly string[]): number {
  for (let i = 0; i < seg.length - 1; i++) {
    const s = (seg[i] as string).toLowerCase();
    const n = (seg[i + 1] as string).toLowerCase();
    if (s === ".config" || s === ".local" || s === ".var" || s === "snap") return i + 1;
    if (s === "appdata" && (n === "roaming" || n === "local" || n === "locallow")) return i + 2;
    if (s === "library" && (n === "application support" || n === "containers" || n === "group containers")) return i + 2;
  }
  return -1;
}

/** The files and folders of a Chromium engine's session stores. */
const CHROMIUM_STORE_FILE = /^(?:Cookies|Cookies-journal|Login Data|Login Data For Account|Web Data)$/;
const CHROMIUM_STORE_DIR = /^(?:Local Storage|Session Storage|IndexedDB|Local Extension Settings|Sync Extension Settings|Managed Extension Settings)$/;
/** Not a store (caches and code), at any depth. */
const NOT_STORE_DIR = /^(?:Cache|Code Cache|GPUCache|DawnCache|ShaderCache|GrShaderCache|Crashpad|Crash Reports|logs?|blob_storage|Extensions|node_modules|site-packages|extensions|lazy|plugins|pack)$/;
const SOURCE_FILE = /\.(?:js|mjs|cjs|ts|tsx|jsx|py|rb|go|rs|java|kt|lua|php|sh|map|d\.ts|md|html|css)$/i;
/** A credential word as a word of a file name. */
const CREDENTIAL_NAME = /(?:^|[-_.])(?:credentials|creds|secrets?|passwords?|(?:access|refresh|auth|session|id|oauth)[-_]?tokens?)(?:[-_.]|$)/i;
const WALLET_DIR = /^(?:[^/\\]{1,60}\.wallet|wallets)$/i;
const WINDOWS_KEYS = /(?:^|[/\\])Microsoft[/\\](?:Crypto[/\\](?:RSA|Keys|DSS|SystemKeys|PCPKSP)|Vault)(?:[/\\]|$)/i;
const SELF_HOSTED_VAULT = /(?:^|[/\\])(?:vw-data|vaultwarden[\w-]{0,40}|bitwarden_rs[\w-]{0,40}|bwdata)[/\\](?:[^/\\]{1,100}[/\\]){0,4}(?:db\.sqlite3(?:-wal|-shm)?|rsa_key[\w.-]{0,20}|config\.json|attachments(?:[/\\].*)?|sends(?:[/\\].*)?|identity(?:[/\\].*)?)$|^\/etc\/passbolt\/gpg\/[^/]{1,120}private[^/]{0,60}\.asc$/i;
/** cloudflared's tunnel credentials and origin certificate in its system folder, as in the home's `.cloudflared`. */
const CLOUDFLARED_SYSTEM = /^\/(?:etc|usr\/local\/etc)\/cloudflared\/[^/]{1,120}\.(?:json|pem)$/i;
const SYSTEM_KEY_DIR = /^\/(?:etc|var|srv|opt|data)\/(?:[^/]{1,100}\/){0,6}(?:keys|private|secrets)\/[^/]{1,160}\.(?:pem|der|key|p12|pfx)$/i;
const PUBLIC_HALF = /(?:^|[-_.])(?:pub|public|pubkey|cert|certificate|crt|ca|chain|fullchain|bundle)(?:[-_.]|$)/i;
const RENVIRON = new RegExp(String.raw`^${HOME}[/\\]\.Renviron(?:\.site)?$`, "i");
const CONF_STORE = /(?:^|[/\\])(?:Library[/\\]Preferences|\.config|AppData[/\\]Roaming)[/\\][\w.@-]{1,80}-nodejs[/\\](?:Config[/\\])?config\.json$/i;
const HOME_DOT_KEYSTORE = new RegExp(String.raw`^${HOME}[/\\]\.[^/\\]{1,60}[/\\](?:[^/\\]{1,100}[/\\]){0,3}(?:keystore|keyring)(?:[/\\].*)?$`, "i");

/** The kind of sensitive path one of these families finds, or null. */
export function holdsKind(p: string): string | null {
  if (p.length > 4096) return null;
  const seg = p.split(/[/\\]/, 64).filter((s) => s !== "");
  const base = seg[seg.length - 1] ?? "";
  if (WINDOWS_KEYS.test(p)) return "sensitive_path.system";
  if (CLOUDFLARED_SYSTEM.test(p)) return "sensitive_path.cloud_credentials";
  if (SELF_HOSTED_VAULT.test(p)) return "sensitive_path.credential_file";
  if (SYSTEM_KEY_DIR.test(p) && !PUBLIC_HALF.test(base)) return "sensitive_path.credential_file";
  if (RENVIRON.test(p)) return "sensitive_path.dotenv";
  if (CONF_STORE.test(p)) return "sensitive_path.credential_file";
  if (HOME_DOT_KEYSTORE.test(p)) return "sensitive_path.credential_file";
  if (/\.seco$/i.test(base)) return "sensitive_path.credential_file";
  const root = appDataRoot(seg);
  const homeDot = /^(?:~|\$\{?HOME\}?|%USERPROFILE%)$/i.test(seg[0] ?? "") ? 1 : /^(?:home|Users)$/i.test(seg[0] ?? "") ? 2 : /^[A-Za-z]:$/.test(seg[0] ?? "") && /^Users$/i.test(seg[1] ?? "") ? 3 : -1;
  const from = root >= 0 ? root : homeDot >= 0 && (seg[homeDot] ?? "").startsWith(".") ? homeDot : -1;
  if (from < 0) return null;
  const below = seg.slice(from);
  if (below.some((s) => NOT_STORE_DIR.test(s))) return null;
  // A Chromium engine's stores (a file, or anything in a store folder).
  if (root >= 0 && (CHROMIUM_STORE_FILE.test(base) || below.slice(0, -1).some((s) => CHROMIUM_STORE_DIR.test(s)) || CHROMIUM_STORE_DIR.test(base))) return "sensitive_path.app_session";
  if (below.some((s) => WALLET_DIR.test(s))) return "sensitive_path.credential_file";
  if (CREDENTIAL_NAME.test(base) && !SOURCE_FILE.test(base) && below.length >= 2) return "sensitive_path.credential_file";
  return null;
}

/** Literals one of these paths holds (for paths.ts's prefilter), besides those it has already. */
export const HOLDS_HINTS = ["cookies", "login data", "web data", "extension settings", "indexeddb", "local storage", "session storage", ".wallet", "wallets", ".seco", "crypto", "microsoft", "vault", "bwdata", "vw-data", "vaultwarden", "bitwarden", "passbolt", "/keys/", "/private/", ".renviron", "-nodejs", "cloudflared", "keystore", "keyring", "cred", "secret", "password", "token"];
