import { escapeRegExp } from "../../protocol/glob.js";
import { commandOperands } from "./commands.js";
import { commandsInRequest, fileRequests } from "./requests.js";
import { literalId, literalsOf } from "./literals.js";
import { neighbourSource, plainCredentialConfigWrite, plainEnvWrite } from "./paths-benign.js";
import { appKind, APP_HINTS } from "./paths-apps.js";
import { findSearches, STORE_HINTS, storeKind } from "./paths-stores.js";
import { SCOPE_HINTS, scopeKind } from "./paths-scope.js";
import { HOLDS_HINTS, holdsKind } from "./paths-holds.js";
import { CONFIGS_HINTS, configKind, ownTreeConfigRead, productionConfig, uriClimb } from "./paths-configs.js";
import { NETWORK_HINTS, networkKind } from "./paths-network.js";
import { CATALOG_HINTS, catalogKind } from "./paths-catalog.js";
import { KEYS_HINTS, keyKind } from "./paths-keys.js";
import { NAMED_HINTS, namedKind } from "./paths-named.js";
import type { Detection, StringSite } from "./scan.js";
import type { RoledSite } from "./sites.js";

/*
 * Sensitive paths: keys, credential files, protected system files, browser profiles, and paths that climb out of the
 * working tree. Judged only where a path is (docs/detection.md, "Where each detector looks"): `path` arguments, the
 * file operands and redirections of `command` arguments, and `file:` URIs (`url` arguments, `resources/read`).
 * File contents, commit messages, memory, thoughts and results are never read for paths.
 */

/** Path-like tokens: split on whitespace, quotes and shell punctuation. */
const TOKEN = /[^\s"'`<>|;,()[\]{}]+/g;

const SENSITIVE: { type: string; re: RegExp }[] = [
  {
    type: "sensitive_path.ssh_key",
    // Anything in ~/.ssh but its config, known hosts and public keys; private keys by their usual names anywhere.
    // (Twentieth round) A server's host private key by its name wherever the server keeps it (`/etc/ssh`, Windows's
    // `ProgramData\ssh`, `/usr/local/etc/ssh`, another machine's share, a backup): whoever holds it can pose as the host.
    re: /(?:^|[/\\])(?:\.ssh[/\\](?!(?:config|known_hosts(?:\.old)?|environment|authorized_keys2?)$)[^/\\]+|id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?)$|(?:^|[/\\])ssh_host_[a-z0-9]{1,16}_key$/i,
  },
  {
    type: "sensitive_path.cloud_credentials",
    re: /(?:^|[/\\])(?:\.aws[/\\](?:credentials|config|sso[/\\]cache[/\\].+|cli[/\\]cache[/\\].+)|\.azure[/\\](?:accessTokens\.json|msal_token_cache\.\w+|azureProfile\.json|service_principal_entries\.json)|gcloud[/\\](?:credentials\.db|access_tokens\.db|application_default_credentials\.json|legacy_credentials(?:[/\\].*)?)|\.kube[/\\]config|\.docker[/\\]config\.json|\.config[/\\]gh[/\\]hosts\.yml|\.terraform\.d[/\\]credentials\.tfrc\.json|\.pulumi[/\\]credentials\.json|\.config[/\\]rclone[/\\]rclone\.conf|\.s3cfg|\.boto|\.databrickscfg)$|^(?:\/var)?\/run\/secrets\/(?:kubernetes\.io\/serviceaccount\/(?:token|namespace|ca\.crt)|eks\.amazonaws\.com\/serviceaccount\/token|.+)$|^\/etc\/kubernetes\/(?:admin\.conf|kubelet\.conf|controller-manager\.conf|scheduler\.conf|pki\/.+\.key)$|^\/var\/lib\/kubelet\/pki\/.+\.key$/i,
  },
  {
    // Credential folders themselves (a listing or a read of the folder gives away what is in it), and more CLIs' files.
    type: "sensitive_path.cloud_credentials",
    re: /(?:^|[/\\])(?:\.aws|\.azure|\.kube|\.docker|\.oci|\.minikube|\.config[/\\]gcloud|gcloud|\.config[/\\]doctl|\.config[/\\]hcloud|\.fly|\.cloudflared|\.wrangler|\.config[/\\]op)[/\\]?$|(?:^|[/\\])(?:\.oci[/\\](?:config|.+\.pem)|\.config[/\\]doctl[/\\]config\.ya?ml|\.config[/\\]hcloud[/\\]cli\.toml|\.fly[/\\]config\.yml|\.cloudflared[/\\].+\.(?:pem|json)|\.wrangler[/\\]config[/\\].+|\.docker[/\\](?:machine[/\\].+\.pem|certs?[/\\].*key.*\.pem)|\.minikube[/\\].+\.key|\.config[/\\]op[/\\].+|gcloud[/\\](?:credentials[/\\]?.*))$/i,
  },
  { type: "sensitive_path.ssh_key", re: /(?:^|[/\\])\.ssh[/\\]?$/i },
  { type: "sensitive_path.dotenv", re: /(?:^|[/\\])\.env(?:\.(?!example$|sample$|template$|dist$|defaults$|schema$)[\w-]+)?$/i },
  {
    type: "sensitive_path.credential_file",
    re: /(?:^|[/\\])(?:\.netrc|_netrc|\.git-credentials|\.config[/\\]git[/\\]credentials|\.npmrc|\.pypirc|\.pgpass|\.my\.cnf|\.htpasswd|\.vault-token|\.terraformrc|credentials\.json|secrets\.ya?ml|\.gnupg(?:[/\\].*)?|\.password-store(?:[/\\].*)?|keychain-db|\.keychain|\.cargo[/\\]credentials(?:\.toml)?|\.gem[/\\]credentials|\.composer[/\\]auth\.json|\.config[/\\]composer[/\\]auth\.json|\.(?:bash|zsh|psql|mysql|sh)_history|Microsoft[/\\]Credentials(?:[/\\].*)?|Microsoft[/\\]Protect(?:[/\\].*)?)$/i,
  },
  {
    // Build tools' and package managers' credentials, keyrings and password databases, Kerberos tickets and keytabs,
    // crypto wallets, saved FTP logins, every shell's and REPL's history.
    type: "sensitive_path.credential_file",
    re: /(?:^|[/\\])(?:\.config[/\\]sops[/\\]age[/\\]keys\.txt|\.m2[/\\]settings(?:-security)?\.xml|\.gradle[/\\]gradle\.properties|\.nuget[/\\]NuGet[/\\]NuGet\.Config|\.ivy2[/\\]\.credentials|\.sbt[/\\]\.credentials|\.config[/\\]hub|\.local[/\\]share[/\\]keyrings(?:[/\\].*)?|Library[/\\]Keychains(?:[/\\].*)?|[^/\\]+\.kdbx?|[^/\\]+\.keytab|krb5cc_[\w-]+|(?:\.bitcoin|\.litecoin|\.dogecoin)[/\\]wallet\.dat|wallet\.dat|\.ethereum[/\\]keystore(?:[/\\].*)?|\.config[/\\]solana[/\\](?:id|[\w-]*keypair[\w-]*)\.json|\.near-credentials(?:[/\\].*)?|\.sui[/\\]sui_config[/\\]sui\.keystore|\.aptos[/\\]config\.ya?ml|\.foundry[/\\]keystores(?:[/\\].*)?|\.electrum[/\\]wallets(?:[/\\].*)?|(?:\.config[/\\]filezilla|FileZilla)[/\\](?:sitemanager|recentservers)\.xml|\.purple[/\\]accounts\.xml|\.(?:python|node_repl|sqlite|rediscli|irb|pry|lesshst|mongo|dbshell|ksh|tcsh|csh)_?history|\.lesshst|\.local[/\\]share[/\\]fish[/\\]fish_history|ConsoleHost_history\.txt)$/i,
  },
  {
    // (Fifth round) services' and automation servers' own credential stores: CI servers (Jenkins' master key and
    // credentials, GitLab's secrets and runner tokens), cluster distributions' admin kubeconfigs, VPN and Wi-Fi keys,
    // mail relay passwords, database maintenance logins, and deploy CLIs' token files in the home folder.
    type: "sensitive_path.credential_file",
    re: /(?:^|[/\\])(?:(?:\.jenkins|jenkins(?:_home)?|jenkins-home)[/\\](?:secrets[/\\].+|credentials\.xml|users[/\\].+[/\\]config\.xml)|\.gitlab-runner[/\\]config\.toml|\.vault_pass(?:word)?(?:\.txt)?|\.ansible[/\\]vault[_-]pass\w*|\.config[/\\](?:Bitwarden CLI[/\\]data\.json|argocd[/\\]config|glab-cli[/\\]config\.yml|netlify[/\\]config\.json|stripe[/\\]config\.toml|configstore[/\\]firebase-tools\.json|gh-copilot[/\\].+)|\.flyrc|\.circleci[/\\]cli\.yml|\.netlify[/\\]config\.json|\.vercel[/\\]auth\.json|com\.vercel\.cli[/\\]auth\.json|\.railway[/\\]config\.json|\.supabase[/\\]access-token|\.snowflake[/\\](?:connections|config)\.toml|\.dbt[/\\]profiles\.yml|\.twilio-cli[/\\]config\.json|\.sentryclirc|\.travis[/\\]config\.yml)$|^\/etc\/(?:gitlab\/gitlab-secrets\.json|gitlab-runner\/config\.toml|rancher\/(?:k3s\/k3s|rke2\/rke2)\.yaml|wireguard\/.+\.conf|NetworkManager\/system-connections\/.+|wpa_supplicant\/wpa_supplicant(?:-[\w-]+)?\.conf|postfix\/sasl_passwd(?:\.db)?|mysql\/debian\.cnf)$|^\/var\/lib\/(?:jenkins\/(?:secrets\/.+|credentials\.xml)|tailscale\/tailscaled\.state|rancher\/k3s\/server\/(?:token|cred\/.+))$/i,
  },
  {
    type: "sensitive_path.system",
    re: /^(?:\/etc\/(?:shadow|gshadow|sudoers(?:\.d\/.*)?|master\.passwd|security\/opasswd)|\/etc\/ssl\/private(?:\/.*)?|\/root(?:\/.*)?|\/proc\/(?:self|\d+|thread-self)\/(?:environ|mem|maps|cmdline)|\/(?:var\/)?run\/docker\.sock|\/(?:var\/)?run\/containerd\/containerd\.sock|[A-Za-z]:\\Windows\\System32\\config\\(?:SAM|SYSTEM|SECURITY)|[A-Za-z]:\\Windows\\repair\\SAM)$/i,
  },
  {
    type: "sensitive_path.system",
    re: /^(?:\/etc\/(?:krb5\.keytab|shadow-|gshadow-|passwd-|letsencrypt\/(?:live|archive)\/.+\/privkey\d*\.pem|pki\/tls\/private(?:\/.*)?|ssh\/ssh_host_\w+_key)|(?:[A-Za-z]:)?\\Windows\\(?:NTDS\\ntds\.dit|Panther\\(?:Unattend|unattend|Unattended)\.xml|System32\\config\\RegBack\\(?:SAM|SYSTEM|SECURITY)|System32\\Sysprep\\(?:unattend|sysprep)\.xml))$/i,
  },
  {
    // (Sixth round) any tool's credential store in the home folder: a hidden folder of the home (or `.config/<app>`,
    // `AppData\\<Roaming|Local>\\<app>`) holding a file named for credentials — `auth.json`, `credentials.toml`,
    // `oauth_creds.json`, `token.json`, `api_key`… — whatever the tool (AI coding CLIs, deploy CLIs, SDKs).
    type: "sensitive_path.credential_file",
    re: /(?:^|[/\\])(?:~|\$\{?HOME\}?|%USERPROFILE%|home[/\\][^/\\]+|Users[/\\][^/\\]+|root)[/\\](?:\.config[/\\][^/\\]+|AppData[/\\](?:Roaming|Local)[/\\][^/\\]+|\.[^/\\]+)[/\\](?:[^/\\]+[/\\])?\.?(?:auth|credentials?|creds|oauth[_-]?creds|oauth[_-]?tokens?|tokens?|access[_-]?tokens?|refresh[_-]?tokens?|api[_-]?keys?|secrets?|session[_-]?tokens?)(?:\.(?:json|toml|ya?ml|txt|db|dat|ini|conf))?$/i,
  },
  {
    // (Ninth round) apps' own stores of sessions and keys, as a family rather than one app at a time: the session
    // stores every Chromium-based desktop app keeps in its data folder (Slack, Discord, Teams, Signal, WhatsApp,
    // Element, Notion… — `Cookies`, `Local Storage`, `Session Storage`, `IndexedDB`, `Login Data`); Signal's key file
    // and database; Telegram Desktop's `tdata`; every Mozilla profile's saved logins and key databases (Thunderbird,
    // LibreWolf, Waterfox, SeaMonkey); editors' state databases where extensions keep their tokens (VS Code and its
    // forks); the folders of cloud CLIs' SSO and session caches; the network manager's connection files (Wi-Fi keys).
    // An app's ordinary settings (`settings.json`, `keybindings.json`, a project's `.vscode/…`) are not in it.
    type: "sensitive_path.app_session",
    re: /(?:^|[/\\])(?:\.config|AppData[/\\](?:Roaming|Local)|Library[/\\]Application Support|\.var[/\\]app[/\\][^/\\]+[/\\]config)[/\\][^/\\]+(?:[/\\][^/\\]+)?[/\\](?:Network[/\\])?(?:Cookies|Login Data|Local Storage(?:[/\\].*)?|Session Storage(?:[/\\].*)?|IndexedDB(?:[/\\].*)?)$|(?:^|[/\\])Signal(?: Beta)?[/\\](?:config\.json|sql(?:[/\\].*)?)$|(?:^|[/\\])Telegram Desktop[/\\]tdata(?:[/\\].*)?$|(?:^|[/\\])(?:\.thunderbird|Thunderbird[/\\]Profiles|\.librewolf|LibreWolf[/\\]Profiles|\.waterfox|Waterfox[/\\]Profiles|\.mozilla[/\\]seamonkey|SeaMonkey[/\\]Profiles)(?:[/\\].*)?[/\\](?:logins\.json|key[34]\.db|signons\.sqlite|cookies\.sqlite)$|(?:^|[/\\])(?:Code|Code - Insiders|Code - OSS|VSCodium|Cursor|Windsurf|Trae)[/\\]User[/\\](?:globalStorage|workspaceStorage[/\\][^/\\]+)[/\\]state\.vscdb(?:\.backup)?$|(?:^|[/\\])\.aws[/\\](?:sso|cli)[/\\]cache[/\\]?$|^\/etc\/(?:NetworkManager\/system-connections|wpa_supplicant|wireguard)\/?$|^\/var\/lib\/iwd(?:\/[^/]+\.(?:psk|8021x))?\/?$/i,
  },
  {
    type: "sensitive_path.browser_profile",
    re: /(?:Google[/\\]Chrome|google-chrome|Chromium|BraveSoftware|Microsoft[/\\]Edge|microsoft-edge|\.mozilla[/\\]firefox|Firefox[/\\]Profiles|Library[/\\]Safari)[/\\].*(?:Login Data|Cookies|Web Data|Local State|History|logins\.json|key[34]\.db|cookies\.sqlite|places\.sqlite|formhistory\.sqlite|Cookies\.binarycookies|History\.db)$/i,
  },
];

/** Without one of these (in any case), no token of a string can be a sensitive path or a traversal. */
const HINTS = [".ssh", "id_", ".aws", ".azure", "gcloud", ".kube", ".docker", ".config", ".env", "netrc", "credentials", ".npmrc", ".pypirc", ".pgpass", ".my.cnf", ".htpasswd", ".vault", ".terraform", ".pulumi", ".s3cfg", ".boto", ".databrickscfg", "secrets", ".gnupg", ".password", "eychain", "/etc/", "/root", "/proc/", "/run/", "docker.sock", "ystem32", "\\windows\\", "hrom", "rave", "dge", "irefox", "afari", "../", "..\\", "%2e", "shadow", "sudoers", "_history", "/var/lib/kubelet", ".cargo", ".gem", "auth.json", "icrosoft",
  ".oci", ".minikube", "doctl", "hcloud", ".fly", "cloudflared", "wrangler", "/op", "sops", ".m2", ".gradle", "nuget", ".ivy2", ".sbt", "/hub", "keyrings",
  ".kdb", ".keytab", "krb5", "wallet", ".ethereum", "near-cred", "sui_config", ".aptos", ".foundry", ".electrum", "ilezilla", ".purple", "history", "lesshst", "ntds", "anther", "egback", "ysprep",
  "letsencrypt", "/pki/", "shadow-", "passwd-",
  // (Fifth round: services' stores outside `/etc/` and `.config`, and `*` for a search's glob.)
  "jenkins", "gitlab-runner", "rancher", "ansible", "vercel", ".flyrc", ".circleci", ".railway", ".supabase", ".snowflake", ".dbt", "twilio", "sentryclirc", ".travis", "tailscale", "*",
  // (Sixth round: home credential stores by name, admin shares, key files under system folders, public-key files.)
  "auth", "cred", "token", "api_key", "api-key", "apikey", "secret", "$/", "$\\", ".pem", ".key", ".p12", ".pfx", ".jks", "keystore", "authorized_keys",
  // (Ninth round: apps' session stores, mail clients' profiles, editors' state databases, network keys.)
  "ookies", "Login Data", "Storage", "IndexedDB", "signal", "tdata", "thunderbird", "librewolf", "waterfox", "seamonkey", "vscdb", "/iwd", "networkmanager", "wpa_supplicant", "wireguard",
  // (Tenth round: state files, key stores, services' secret files, tools' keys in the home folder: paths-stores.ts.)
  ...STORE_HINTS,
  // (Eleventh round: deployed apps' configuration, vaults, launchers' logins, dumps, signing keys, VPN: paths-apps.ts.)
  ...APP_HINTS,
  // (Twelfth round: AI clients' MCP configurations, cookie jars, local servers' stores, CLIs' logins: paths-scope.ts.)
  ...SCOPE_HINTS,
  // (Thirteenth round: Chromium stores at any depth, wallets, credential names in app data, Windows key stores: paths-holds.ts.)
  ...HOLDS_HINTS,
  // (Fourteenth round: production configuration, login files, service keys, tools' stores by role, URIs' climbs: paths-configs.ts.)
  ...CONFIGS_HINTS,
  // (Fifteenth round: infrastructure's shared secrets — network gear, telephony, monitoring, SOC tools: paths-network.ts.)
  ...NETWORK_HINTS,
  // (Sixteenth round: products' credential and session files from their documented locations: paths-catalog.ts.)
  ...CATALOG_HINTS,
  // (Seventeenth round) private keys by name, stash files, keyrings kept as files, logins under an account's name.
  ...KEYS_HINTS,
  // (Twenty-first round: a file its owner named for the secrets it holds: paths-named.ts.)
  ...NAMED_HINTS];
const SENSITIVE_HINT = new RegExp(HINTS.map(escapeRegExp).join("|"), "i");
const SENSITIVE_HINT_IDS = HINTS.map(literalId);
const HINTS_LOWER = HINTS.map((h) => h.toLowerCase());
/** A token can only be a path if it has a separator or starts like a dotfile. */
const PATHISH = /[/\\]|^\.|^id_|%2e/i;
/**
 * (Eleventh round) A path argument's bare file name with an extension (`secure_boot_signing_key.pem`,
 * `terraform.tfstate`) is a file in the working folder: the families read by name judge it. Not a command's operand:
 * there a bare name is as often what a tool writes or uses without showing it (`openssl … -out server.p12`).
 */
const BARE_NAME = /^[\w.-]{1,120}\.[A-Za-z0-9]{1,12}$/;

/**
 * Whether a relative path climbs out of where it starts by two levels or more (`../../x`, `docs/../../../etc`), or an
 * absolute one climbs two levels at once (`/srv/app/../../etc`). One level up (`../README.md`, a sibling checkout)
 * passes. Percent-encoded dots are always a traversal: nobody writes a path like that but to get past a check.
 */
function climbsOut(path: string): boolean {
  if (/%2e%2e/i.test(path)) return true;
  if (!path.includes("..")) return false;
  if (neighbourSource(path)) return false;
  const segments = path.split(/[/\\]+/);
  const absolute = /^(?:[/\\]|[A-Za-z]:|~|\$HOME|\$\{HOME\}|file:)/i.test(path);
  let depth = 0;
  let run = 0;
  let deepest = 0;
  for (const s of segments) {
    if (s === "..") {
      depth--;
      run++;
      if (absolute ? run >= 2 : depth <= -2) return true;
      // (Twelfth round) A relative path that goes down and then climbs above where it started (`2026/11/../../../x`):
      // the way down only hides the climb. `../README.md` and `docs/../README.md` pass.
      if (!absolute && depth < 0 && deepest >= 1) return true;
    } else {
      run = 0;
      if (s !== "." && s !== "") depth++;
      if (depth > deepest) deepest = depth;
    }
  }
  return false;
}

/** `..` and `.` segments of an absolute path resolved, so `/app/../etc/shadow` is judged as `/etc/shadow`. */
function lexical(path: string): string {
  if (!path.startsWith("/") || !/(?:^|\/)\.{1,2}(?:\/|$)/.test(path)) return path;
  const out: string[] = [];
  for (const s of path.split("/")) {
    if (s === "" || s === ".") continue;
    if (s === "..") out.pop();
    else out.push(s);
  }
  return "/" + out.join("/");
}

/** The kind of sensitive path a single path is, or null. */
export function sensitiveKind(path: string): string | null {
  if (path.length < 4 || path.endsWith(".pub")) return null;
  if (climbsOut(path)) return "sensitive_path.traversal";
  const p = lexical(windowsForm(path.replace(PROC_ROOT, "")));
  for (const s of SENSITIVE) if (s.re.test(p)) return s.type;
  if (keyFileInSystemFolder(p)) return "sensitive_path.system";
  return storeKind(p) ?? appKind(p) ?? scopeKind(p) ?? holdsKind(p) ?? configKind(p) ?? networkKind(p) ?? catalogKind(p) ?? keyKind(p) ?? namedKind(p);
}

/** `/proc/self/root/etc/shadow` is `/etc/shadow`: a process's root link is the root (sixth round). */
const PROC_ROOT = /^\/proc\/(?:self|thread-self|\d{1,10})\/root(?=\/)/;
/** An admin share (`\\\\host\\C$\\…`, `file://host/C$/…` once its host is cut) or a drive path written with `/`. */
const ADMIN_SHARE = /^(?:[/\\]{2}[^/\\]{1,255})?[/\\]([A-Za-z])\$([/\\].*)$/;

/** A Windows path as the Windows rules read it: an admin share is its drive, and `/` is `\\` (sixth round). */
function windowsForm(path: string): string {
  const share = ADMIN_SHARE.exec(path);
  if (share) return `${share[1] as string}:${(share[2] as string).replace(/\//g, "\\")}`;
  return /^[A-Za-z]:\//.test(path) ? path.replace(/\//g, "\\") : path;
}

/**
 * A file named as a private key or a key store (`*key*.pem`, `*.key`, `*.p12`, `*.pfx`, `*.jks`, `*.keystore`) under
 * a system or service folder (`/etc`, `/var`, `/srv`, `/opt`, `/mnt`, `/data`): a service's or another container's
 * key, not the project's (sixth round). Read by name, without a regex over the path.
 */
function keyFileInSystemFolder(p: string): boolean {
  if (!/^\/(?:etc|var|srv|opt|mnt|data|usr\/local\/etc)\//.test(p)) return false;
  const base = p.slice(p.lastIndexOf("/") + 1).toLowerCase();
  if (base.endsWith(".pem") || base.endsWith(".der")) return base.includes("key");
  return /\.(?:key|p12|pfx|jks|keystore)$/.test(base);
}

/** Public-key files: reading them reveals nothing, but writing one grants a login (`~/.ssh/authorized_keys`). */
const GRANTS_LOGIN = /(?:^|[/\\])\.ssh[/\\]authorized_keys2?$/i;

/** Every sensitive path in a string read as paths (a whole value, or its tokens); spans in the string. */
function pathsIn(value: string, writing = false, bare = false): { type: string; start: number; end: number; path: string }[] {
  const out: { type: string; start: number; end: number; path: string }[] = [];
  // A whole value that is one path may contain spaces ("…/Default/Login Data").
  // (Eleventh round) So may one without spaces that the tokens would split (`…/[0;3e7]-2-0-…@krbtgt….kirbi`).
  if (value.length < 4096 && !value.includes("\n") && (value.includes(" ") || /^[^\s"'`<>|]{4,4095}$/.test(value) && /[;,()[\]{}]/.test(value))) {
    const whole = value.trim();
    const type = sensitiveKind(whole);
    if (type) {
      const start = value.indexOf(whole);
      out.push({ type, start, end: start + whole.length, path: whole });
      return out;
    }
  }
  TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TOKEN.exec(value)) !== null) {
    let token = m[0];
    // `file:///…` URIs and `path=…`/`--path=…` options carry a path after a prefix.
    const eq = token.lastIndexOf("=");
    let offset = 0;
    if (eq >= 0 && eq < token.length - 1) {
      offset = eq + 1;
      token = token.slice(offset);
    }
    if (/^file:\/\//i.test(token)) {
      const host = token.slice(7).indexOf("/");
      let cut = host > 0 && !/^[A-Za-z]:/.test(token.slice(7)) ? 7 + host : 7;
      // (Eleventh round) `file:///C:/Windows/…`: the drive follows the URI's root slash.
      if (/^\/[A-Za-z]:[/\\]/.test(token.slice(cut))) cut++;
      offset += cut;
      token = token.slice(cut);
    }
    if (token.length < 4 || !(PATHISH.test(token) || (bare && BARE_NAME.test(token)))) continue;
    let type = sensitiveKind(token);
    if (!type && token.includes("%")) type = sensitiveKind(percentDecoded(token));
    // (Twentieth round) A sentence's full stop after the path ("… the content of /etc/shadow.") is not part of it.
    if (!type && /[.!?:]$/.test(token)) {
      const stripped = token.replace(/[.!?:]{1,4}$/, "");
      type = stripped.length >= 4 ? sensitiveKind(stripped) : null;
      if (type) token = stripped;
    }
    if (!type && writing && GRANTS_LOGIN.test(token)) type = "sensitive_path.ssh_key";
    if (type) out.push({ type, start: m.index + offset, end: m.index + offset + token.length, path: token });
  }
  return out;
}

function percentDecoded(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const KINDS: Record<string, string> = {
  "sensitive_path.ssh_key": "an SSH key",
  "sensitive_path.cloud_credentials": "cloud or cluster credentials",
  "sensitive_path.dotenv": "an environment file with secrets",
  "sensitive_path.credential_file": "a credential file",
  "sensitive_path.system": "a protected system file",
  "sensitive_path.browser_profile": "a browser's saved logins, cookies or history",
  "sensitive_path.app_session": "an app's stored sessions, keys or saved logins",
  "sensitive_path.traversal": "a path outside the working tree",
};

/** What a tool does with its path, from its name: the verb of the refusal ("writing", not "reading", for a write). */
function verbOf(tool: string | undefined): string {
  const t = (tool ?? "").toLowerCase();
  if (/write|create|save|append|put|upload|edit|patch|update|replace|insert/.test(t)) return "writing";
  if (/move|rename|copy|cp\b|mv\b/.test(t)) return "moving or copying";
  if (/delete|remove|unlink|rm\b/.test(t)) return "deleting";
  if (/list|tree|search|find|glob|stat|info|exists/.test(t)) return "listing";
  return "reading";
}

function detail(type: string, path: string, action: string): string {
  const shown = path.length > 120 ? path.slice(0, 117) + "…" : path;
  return `${action} ${shown} (${KINDS[type] ?? "a sensitive path"})`;
}

/** Arguments of a tool call that hold a search's glob or file-name pattern. */
const GLOB_KEYS = /^(?:pattern|patterns|glob|globs|include|includes|name|names|filename_?pattern|file_?pattern|match|query|filter|mask|wildcard)$/i;
/** Arguments that say where the search starts. */
const ROOT_KEYS = /^(?:root|path|dir|directory|cwd|base|base_?dir|folder|start|from|in|search_?path|location)$/i;
/** File names only keys are given (SSH private keys, key stores, password databases): a search for them anywhere. */
const KEY_NAMES = /^(?:id_(?:\*|rsa|dsa|ecdsa|ed25519)\*?|\*_(?:rsa|dsa|ecdsa|ed25519)|\*id_rsa\*?|\*\.(?:p12|pfx|ppk|kdbx?|keystore|jks|keytab|gpg)|wallet\.dat|\.git-credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc|\.vault-token|credentials(?:\.json)?|\.aws\/credentials)$/i;
/** File names keys are often given, and other things too: a search for them counts from the home or the system folder. */
const KEYISH_NAMES = /^(?:\*?kubeconfig\*?|\*\.kubeconfig|\*\.(?:pem|key|env|asc)|\.env(?:\*|\.\*)?|\*\.?env\*?|\*secret\*|\*credential\*|\*password\*|\*token\*)$/i;
/** Where a search reaches every user's or the user's whole home: `/`, `~`, `/home/x`, `/Users/x`, `C:\Users\x`. */
const WIDE_ROOT = /^(?:\/|~[/\\]?|\$HOME\/?|\/home(?:\/[^/]+)?\/?|\/Users(?:\/[^/]+)?\/?|\/root\/?|[A-Za-z]:\\(?:Users(?:\\[^\\]+)?)?\\?)$/i;

/** A glob's alternatives: `{a,b}` expanded once (at most 32), then the last segment of each. */
function globNames(glob: string): { names: string[]; prefix: string } {
  const brace = /\{([^{}]{1,400})\}/.exec(glob);
  const forms = brace ? (brace[1] as string).split(",").slice(0, 32).map((alt) => glob.slice(0, brace.index) + alt + glob.slice(brace.index + brace[0].length)) : [glob];
  const names = forms.map((f) => f.slice(Math.max(f.lastIndexOf("/"), f.lastIndexOf("\\")) + 1).trim());
  const cut = Math.min(...forms.map((f) => Math.max(f.lastIndexOf("/"), f.lastIndexOf("\\"))));
  // (`**/x` alone is relative to where the search starts: its prefix is nothing.)
  return { names, prefix: cut > 0 ? (forms[0] as string).slice(0, cut).replace(/(?:[/\\]?\*\*)+$/, "") : "" };
}

/**
 * A search for credential files is a read of them (fifth round): a search tool's glob or name pattern whose
 * alternatives are names only keys are given (`id_*`, `*.p12`, `*.kdbx`, `.git-credentials`), anywhere; or names keys
 * are often given (`*.pem`, `*.key`, `.env*`, `*secret*`) across the home folder or the whole system. `*.pem` in
 * `./certs` is a project's search and passes.
 */
function globsForCredentials(sites: readonly (StringSite | RoledSite)[], out: Detection[]): void {
  let seen = 0;
  for (const site of sites) {
    if (!("tool" in site) || site.tool === undefined || site.role === "command") continue;
    const key = site.path[site.path.length - 1];
    const name = typeof key === "number" ? site.path[site.path.length - 2] : key;
    if (typeof name !== "string" || !GLOB_KEYS.test(name) || site.value.length > 1024 || !/[*?{]/.test(site.value) || ++seen > 16) continue;
    const { names, prefix } = globNames(site.value.trim());
    const root = sites.find((s) => "tool" in s && s.path.length === 3 && s.path[1] === "arguments" && typeof s.path[2] === "string" && ROOT_KEYS.test(s.path[2]) && s !== site)?.value.trim() ?? "";
    const wide = WIDE_ROOT.test(prefix) || (prefix === "" && (root === "" ? false : WIDE_ROOT.test(root)));
    const hit = names.find((n) => KEY_NAMES.test(n) || (wide && KEYISH_NAMES.test(n)));
    if (hit === undefined) continue;
    const type = /^(?:id_|\*_|\*id_)/i.test(hit) ? "sensitive_path.ssh_key" : "sensitive_path.credential_file";
    out.push({ type, path: site.path, start: 0, end: site.value.length, detail: `searching for ${hit}${root ? ` under ${root.slice(0, 60)}` : ""} (${KINDS[type]})` });
  }
}

/**
 * (Tenth round) The same searches made by a command line: `find ~ -name '*.pem' -o -name 'kubeconfig*'`, `fd -H id_rsa /`
 * (paths-stores.ts reads the line's searches). A search without a root starts where the command runs: not wide.
 */
function commandSearchesForCredentials(line: string): { type: string; name: string } | null {
  for (const { roots, names } of findSearches(line)) {
    const wide = roots.some((r) => WIDE_ROOT.test(r));
    for (const n of names) {
      const { names: alts } = globNames(n.trim());
      const hit = alts.find((a) => KEY_NAMES.test(a) || (wide && KEYISH_NAMES.test(a)));
      if (hit !== undefined) return { type: /^(?:id_|\*_|\*id_)/i.test(hit) ? "sensitive_path.ssh_key" : "sensitive_path.credential_file", name: hit };
      // (Fourteenth round) A search for one file by its exact name under a tool's folder finds that file: judged as the
      // path it reaches (`find ~/.sqldeveloper -name connections.json -exec cat {} \;`).
      if (!/[*?[{]/.test(n) && n.length <= 120) {
        for (const r of roots.slice(0, 4)) {
          if (WIDE_ROOT.test(r) || r === "." || r === "./") continue;
          const type = sensitiveKind(`${r.replace(/[/\\]+$/, "")}/${n}`);
          if (type !== null && type !== "sensitive_path.traversal") return { type, name: `${r}/${n}` };
        }
      }
    }
  }
  return null;
}

/** `@path` in a request body or a form (`file=@~/.kube/config`, curl's and HTTPie's upload syntax). */
const UPLOAD_REF = /(?:^|[\s=:"'&])@((?:~|\$\{?HOME\}?|%USERPROFILE%|\/|[A-Za-z]:\\)[^\s"'&;,]{2,1024})/g;

/**
 * A tool call's body or form that names a file with `@` uploads that file: the path is read (sixth round). At most
 * 8 references per string.
 */
function uploadReferences(site: StringSite, out: Detection[]): void {
  const v = site.value;
  if (!v.includes("@") || v.length > 65536) return;
  UPLOAD_REF.lastIndex = 0;
  let n = 0;
  for (let m; (m = UPLOAD_REF.exec(v)) !== null && n < 8; n++) {
    const path = m[1] as string;
    const type = sensitiveKind(path);
    if (!type) continue;
    const start = m.index + m[0].length - path.length;
    out.push({ type, path: site.path, start, end: start + path.length, detail: detail(type, path, "uploading") });
  }
}

/** Whether any string of a message may hold a sensitive path (a literal prefilter: false means surely none). */
export function mayHoldSensitivePath(sites: StringSite[]): boolean {
  const lits = literalsOf(sites);
  if (lits === null) return sites.some((s) => SENSITIVE_HINT.test(s.value));
  // The pairs are only a necessary condition: a hint made of common pairs (`/prod/`: a path's `/p`, `pr`, `ro`, `od`,
  // `d/`) passes them in most calls, so the hints that pass are looked for as they are before the whole scan runs (in
  // the lower-cased strings: never fewer places than the case-insensitive expression finds).
  const passing = lits.passing(SENSITIVE_HINT_IDS);
  if (passing.length === 0) return false;
  const lower = sites.map((s) => s.value.toLowerCase());
  return passing.some((k) => lower.some((v) => v.includes(HINTS_LOWER[k] as string)));
}

/**
 * Sensitive paths where a message names a path: `path` and `url` (file: URIs) sites and the file operands of
 * `command` sites. A site without a role (a caller that has none) is read as a path. `prefilter` false takes every
 * token of every string (what the hints must never change).
 */
export function detectSensitivePath(sites: readonly (StringSite | RoledSite)[], prefilter = true): Detection[] {
  const out: Detection[] = [];
  globsForCredentials(sites, out);
  const lits = prefilter ? literalsOf(sites as StringSite[]) : null;
  if (lits !== null && !lits.any(SENSITIVE_HINT_IDS)) return out;
  for (const site of sites) {
    const role = "role" in site ? site.role : "path";
    if (role === "content" || role === "other") {
      if ("tool" in site && site.tool !== undefined) uploadReferences(site, out);
      continue;
    }
    if (prefilter && !SENSITIVE_HINT.test(site.value)) continue;
    const tool = "tool" in site ? site.tool : undefined;
    if (role === "command" || role === "request") {
      // A request to another agent: the command lines it hands over (requests.ts), read as a tool's would be.
      const spans = role === "command" ? [{ start: 0, end: site.value.length }] : commandsInRequest(site.value);
      for (const span of spans) {
        const line = span.start === 0 && span.end === site.value.length ? site.value : site.value.slice(span.start, span.end);
        for (const o of commandOperands(line)) {
          for (const f of pathsIn(o.text, o.writes)) {
            out.push({ type: f.type, path: site.path, start: span.start + o.start, end: span.start + o.end, detail: detail(f.type, f.path, o.writes ? "a shell command writing" : "a shell command reading") });
            break;
          }
        }
        const search = commandSearchesForCredentials(line);
        if (search) out.push({ type: search.type, path: site.path, start: span.start, end: span.end, detail: `a shell command searching for ${search.name} (${KINDS[search.type]})` });
      }
      // A request that asks the agent to read, upload or send a file names the path it opens (sixth round).
      if (role === "request") {
        const seen = new Set(out.map((d) => d.start));
        for (const span of fileRequests(site.value)) {
          for (const f of pathsIn(site.value.slice(span.start, span.end))) {
            if (seen.has(span.start + f.start)) continue;
            out.push({ type: f.type, path: site.path, start: span.start + f.start, end: span.start + f.end, detail: detail(f.type, f.path, "asking another agent to open") });
            break;
          }
        }
      }
      continue;
    }
    // (Fourteenth round) A URI whose path climbs out of its root (paths-configs.ts): an encoded climb in a web address,
    // two levels in a resource URI of another scheme.
    if (role === "url" && !/^\s*file:/i.test(site.value)) {
      const climb = uriClimb(site.value);
      if (climb !== null) {
        out.push({ type: "sensitive_path.traversal", path: site.path, start: 0, end: site.value.length, detail: detail("sensitive_path.traversal", climb, "reading") });
        continue;
      }
      if (!/%2e%2e/i.test(site.value)) continue;
    }
    const verb = role === "url" ? "reading" : verbOf(tool);
    for (const f of pathsIn(site.value, verb === "writing", role === "path")) {
      // (Tenth round) The project's own env file written with plain settings hands nothing over (paths-benign.ts).
      if (verb === "writing" && f.type === "sensitive_path.dotenv" && plainEnvWrite(f.path, site, sites)) continue;
      if (verb === "writing" && f.type === "sensitive_path.credential_file" && plainCredentialConfigWrite(f.path, site, sites)) continue;
      // (Fourteenth round) Writing an app's production configuration hands nothing over (paths-configs.ts).
      if (verb === "writing" && f.type === "sensitive_path.credential_file" && productionConfig(f.path)) continue;
      // (Twentieth round) Reading it inside the project's own tree: its content is judged on the way back.
      if (verb === "reading" && f.type === "sensitive_path.credential_file" && ownTreeConfigRead(f.path)) continue;
      out.push({ type: f.type, path: site.path, start: f.start, end: f.end, detail: detail(f.type, f.path, verb) });
    }
  }
  return out;
}
