/*
 * (Tenth round, "cps10") Families of sensitive paths read by what the file is, not by one tool's folder
 * (docs/detection.md, "Tenth round: what a command destroys, key stores, secrets"):
 *
 * - **infrastructure state that holds secrets in plain text**: Terraform's and OpenTofu's state (`*.tfstate`,
 *   `*.tfstate.backup`, the workspaces' `terraform.tfstate.d/…`) — HashiCorp's own documentation says state holds
 *   every resource's secrets unencrypted — wherever it is, a project's own or a server's. The configuration (`*.tf`,
 *   `.terraform.lock.hcl`, `*.tfvars.example`) is not state;
 * - **signing key stores by their format**: Java and Android key stores (`.jks`, `.keystore`, `.bks`), PKCS#12 bundles
 *   (`.p12`, `.pfx`), PuTTY private keys (`.ppk`) hold private keys whatever folder they sit in. Trust stores (a name
 *   with `trust`, `cacerts`), Android's debug key store (`debug.keystore`, its password published), and the stores of
 *   a project's tests (a `test`, `tests`, `fixtures`, `testdata`, `__tests__` folder, or a name with test, example,
 *   sample, dummy, fake) are not;
 * - **a service's secret files**: under a system or service folder (`/etc/<service>/`, `/var/lib/<service>/`,
 *   `/srv/…`, `/opt/…`), a file whose name says it is a token, a secret, a password, credentials, unseal or root keys
 *   (`/etc/vault.d/.root-token`, `/opt/app/secrets/db_password`, `/var/lib/x/unseal-keys.json`); PAM's
 *   `common-password` and kin are configuration and pass, as do `*.example`/`*.sample` files;
 * - **developer tools' private keys in the home folder**: a key file in a dot folder of the home (`~/.android/adbkey`,
 *   `~/.config/<app>/…key.pem`, `~/.local/share/mkcert/rootCA-key.pem`, `*.key`, a private key by name),
 *   and the folders where a tool keeps only keys (`~/.tsh/keys`, `~/.step/secrets`). Public halves (`.pub`,
 *   `adbkey.pub`, a certificate `.pem` without "key" in its name) pass.
 */

/** A state file's name (tested on the last segment only), or a workspace's state folder anywhere in the path. */
const TFSTATE_NAME = /\.tfstate(?:\.backup|\.\d{1,20}\.backup)?$/i;
const TFSTATE_DIR = /(?:^|[/\\])terraform\.tfstate\.d(?:[/\\]|$)/i;

const KEY_STORE = /\.(?:jks|keystore|bks|p12|pfx|ppk)$/i;
const NOT_A_KEY_STORE = /(?:^|[/\\._-])(?:trust(?:store)?|cacerts|debug|tests?|examples?|samples?|dummy|fake|mock)(?:[/\\._-]|$)|(?:^|[/\\])(?:fixtures?|testdata|test-data|__tests__|spec|testing)[/\\]|truststore/i;

/** A system or service folder and the service's folder under it. */
const SERVICE_DIR = /^(?:\/etc|\/var\/lib|\/var\/opt|\/srv|\/opt|\/usr\/local\/etc|\/data)\/[^/]{1,100}\/(?:[^/]{1,100}\/){0,4}([^/]{1,120})$/;
const SECRET_NAME = /^\.?(?:[\w-]{0,40}[-_.])?(?:root[-_.]?token|tokens?|secrets?|passwords?|passwd|credentials?|creds|api[-_]?keys?|unseal[-_.]?keys?|master[-_.]?key|private[-_.]?key|auth[-_.]?token|access[-_.]?token|client[-_.]?secret)(?:\.(?:txt|json|ya?ml|conf|env|key|hcl|toml|ini|dat))?$/i;
/** Configuration that names a password but is no secret: PAM's stacks, password quality rules, examples. */
const NOT_SECRET_FILE = /^\/etc\/(?:pam\.d|security|login\.defs|default)(?:\/|$)|\.(?:example|sample|template|dist|md|html?|sh|py|rb|js|ts)$|(?:^|[-_.])(?:policy|quality|expiry|reset|hash|example|sample)(?:[-_.]|$)/i;

/** The home folder, in the spellings a path may use (paths-apps.ts and paths-holds.ts use it too). */
export const HOME = String.raw`(?:~|\$\{?HOME\}?|%USERPROFILE%|\/home\/[^/\\]{1,64}|\/Users\/[^/\\]{1,64}|\/root|[A-Za-z]:\\Users\\[^/\\]{1,64})`;
/** A dot folder of the home (or an app's folder under `.config`, `.local/share`), any depth, ending in a key file. */
const HOME_KEY = new RegExp(String.raw`^${HOME}[/\\](?:\.config[/\\][^/\\]{1,64}|\.local[/\\]share[/\\][^/\\]{1,64}|\.[^/\\]{1,64})[/\\](?:[^/\\]{1,100}[/\\]){0,4}(?:adbkey|[^/\\]{0,80}[-_.]key\.pem|[^/\\]{0,80}\.key|private[-_]?key[^/\\]{0,40})$`, "i");
const HOME_KEY_DIRS = new RegExp(String.raw`^${HOME}[/\\](?:\.tsh[/\\]keys|\.step[/\\]secrets|\.android[/\\]adbkey)(?:[/\\].*)?$`, "i");
/** Dot folders of the home that are not keys' (an editor's or a shell's own files named `*.key` are rare but not secret). */
const HOME_NOT_KEY = /[/\\](?:\.cache|\.npm|\.cargo[/\\]registry|\.rustup|\.vscode[/\\]extensions|\.m2[/\\]repository|\.gradle[/\\]caches|node_modules)[/\\]/i;

/** The kind of sensitive path one of these families finds, or null. */
export function storeKind(p: string): string | null {
  const base = p.slice(Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\")) + 1);
  if (TFSTATE_NAME.test(base) || TFSTATE_DIR.test(p)) return "sensitive_path.credential_file";
  if (KEY_STORE.test(p) && !NOT_A_KEY_STORE.test(p)) return "sensitive_path.credential_file";
  const service = SERVICE_DIR.exec(p);
  if (service !== null && SECRET_NAME.test(service[1] as string) && !NOT_SECRET_FILE.test(p)) return "sensitive_path.credential_file";
  if ((HOME_KEY.test(p) || HOME_KEY_DIRS.test(p)) && !HOME_NOT_KEY.test(p)) return "sensitive_path.credential_file";
  return null;
}

/**
 * Literals one of these paths holds (for paths.ts's prefilter), besides those paths.ts already has (`token`, `secret`,
 * `cred`, `auth`, `.key`, `.pem`, `.p12`, `.pfx`, `keystore`, `*`…). Only literals whose pairs of characters are rare
 * in ordinary text: the prefilter is a pair test over the whole message, and a literal like `find ` or `private` would
 * let most messages through to the full path scan (measured: the bench call's path check went from 32 to 385 µs).
 * A service's secret file names a token, secret, password, credentials, unseal or master key; a key in the home folder
 * is `adbkey`, `*.key`, `*key.pem` or a private key by name; a search for key stores by fd's extension switch names it.
 */
export const STORE_HINTS = [".tfstate", ".jks", ".bks", ".ppk", "adbkey", "tsh/keys", "_password", "-password", "/password", "passwd", "unseal", "master_key", "master-key", "private_key", "private-key", "privatekey", "-e p12", "-e pfx", "-e jks", "-e kdbx", "-e ppk", "-e keystore"];

/** A command line's words, quotes taken off (a bounded tokenizer: blanks and shell punctuation split). */
const WORD = /"([^"\n]{0,400})"|'([^'\n]{0,400})'|([^\s"'|;&()<>]{1,400})|([|;&<>]{1,2})|[()]/g;

/**
 * The searches a command line makes with `find` (or `fd`): where each starts and the names or paths it matches
 * (`-name`, `-iname`, `-path`, `-ipath`, `-wholename`; fd's pattern and `-g` glob). At most 8 searches, 64 words each.
 */
export function findSearches(line: string): { roots: string[]; names: string[] }[] {
  const out: { roots: string[]; names: string[] }[] = [];
  if (line.length > 16384 || !/(?:^|[\s;&|(`])(?:find|fd|fdfind)\s/.test(line)) return out;
  const words: string[] = [];
  WORD.lastIndex = 0;
  for (let m; (m = WORD.exec(line)) !== null && words.length < 2048; ) words.push(m[1] ?? m[2] ?? m[3] ?? (m[4] !== undefined ? `\u0000${m[4]}` : m[0]));
  for (let i = 0; i < words.length && out.length < 8; i++) {
    const w = words[i] as string;
    const prev = words[i - 1];
    const atStart = i === 0 || (prev !== undefined && (prev.startsWith("\u0000") || prev === "sudo" || prev === "xargs"));
    if (!atStart) continue;
    const name = w.slice(w.lastIndexOf("/") + 1);
    if (name !== "find" && name !== "fd" && name !== "fdfind") continue;
    const roots: string[] = [];
    const names: string[] = [];
    let j = i + 1;
    if (name === "find") {
      for (; j < words.length && j < i + 64 && !(words[j] as string).startsWith("-") && !(words[j] as string).startsWith("\u0000") && !/^[!(]$/.test(words[j] as string); j++) roots.push(words[j] as string);
      for (; j < words.length && j < i + 64 && !(words[j] as string).startsWith("\u0000"); j++) {
        if (/^-(?:i?name|i?path|i?wholename)$/.test(words[j] as string) && words[j + 1] !== undefined) names.push(words[++j] as string);
      }
    } else {
      const rest: string[] = [];
      for (; j < words.length && j < i + 64 && !(words[j] as string).startsWith("\u0000"); j++) {
        const t = words[j] as string;
        if (t === "-g" || t === "--glob") continue;
        if (t === "-e" || t === "--extension") {
          if (words[j + 1] !== undefined) names.push(`*.${words[++j] as string}`);
          continue;
        }
        if (/^-(?:t|d|E|-type|-max-depth|-exclude)$/.test(t)) {
          j++;
          continue;
        }
        if (!t.startsWith("-")) rest.push(t);
      }
      if (rest[0] !== undefined) names.push(rest[0]);
      roots.push(...rest.slice(1));
    }
    if (names.length > 0) out.push({ roots, names });
    i = j - 1;
  }
  return out;
}
