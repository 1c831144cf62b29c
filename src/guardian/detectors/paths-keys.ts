import { HOME } from "./paths-stores.js";

/*
 * (Seventeenth round, "cp17") Files read by what they unlock, not by one product's folder (docs/detection.md,
 * "Seventeenth round: … ("cp17")"). Called by paths.ts's sensitiveKind after the older families:
 *
 * - **a private key by its file's name**: a key file (`.asc`, `.gpg`, `.pgp`, `.key`, `.pem`, `.ppk`, `.p12`, `.pfx`,
 *   `.jks`) whose name says it is the private or secret half (`payroll_signing_private.asc`, `sftp-secret.key`). The
 *   public half, certificates, a project's own relative paths and test, sample and dev folders pass;
 * - **the file that unlocks a key store**: a stash file (`*.sth`, the password of IBM GSKit's key databases: MQ, Db2,
 *   IBM HTTP Server), SAP's secure-storage key (`SSFS_<SID>.KEY`) and any file under an `rsecssfs` folder;
 * - **a keyring kept as a file**: any file below a folder of the home's `.config` or `.local/share` whose name says
 *   keyring (`python_keyring/keyring_pass.cfg`, `r-keyring/system.keyring`), and a `*.keyring` file there. Source files
 *   (`.py`, `.R`…) pass: that is the library, not the store;
 * - **a login stored under the account's name**: a file directly in a hidden folder of the home named for an account
 *   (`~/.sfdx/admin@corp.example.json`, `~/.tool/user@host.tld.yaml`). A package's version (`lodash@4.17.21.json`) is
 *   not an account: the part after `@` must end in a domain's letters.
 *
 * Every test is a bounded regex on the path (at most 4,096 characters) or on its last segment.
 */

const KEY_EXT = /\.(?:asc|gpg|pgp|key|pem|ppk|p12|pfx|jks|keystore)$/i;
const PRIVATE_WORD = /(?:^|[-_.])(?:private|priv|secret|seckey|secring|privkey)(?:[-_.]|$)/i;
const PUBLIC_WORD = /(?:^|[-_.])(?:pub|public|pubkey|cert|certificate|crt|csr|ca|chain|example|sample|template|dummy|fake|test|mock)(?:[-_.]|$)/i;
/** A repository's fixtures, tests and samples. */
const FIXTURE_DIR = /(?:^|[/\\])(?:tests?|__tests__|spec|specs|fixtures?|testdata|test-data|examples?|samples?|docs?|mocks?|dev|development)[/\\]/i;

const STASH = /(?:^|[/\\])(?:[^/\\]{1,120}\.sth|SSFS_[A-Z0-9]{3}\.KEY)$|[/\\]rsecssfs[/\\](?:key|data)[/\\][^/\\]{1,120}$/i;

const KEYRING = new RegExp(String.raw`^${HOME}[/\\](?:\.config|\.local[/\\]share)[/\\][^/\\]{0,40}keyrings?[^/\\]{0,40}[/\\](?:[^/\\]{1,120}[/\\]){0,3}[^/\\]{1,120}$|^${HOME}[/\\](?:\.config|\.local[/\\]share)[/\\](?:[^/\\]{1,120}[/\\]){0,3}[^/\\]{1,120}\.keyring$|(?:^|[/\\])keyring_pass\.cfg$`, "i");
const SOURCE = /\.(?:py|pyc|r|rd|rds|js|ts|md|txt|html|rst)$/i;

const ACCOUNT_FILE = new RegExp(String.raw`^${HOME}[/\\]\.[\w-]{1,40}(?:[/\\][\w-]{1,40})?[/\\][\w.+-]{1,64}@(?:[\w-]{1,63}\.){1,6}[A-Za-z]{2,24}\.(?:json|ya?ml|toml|ini|cfg|conf)$`, "i");

/** The kind of sensitive path these files are (see above), or null. */
export function keyKind(p: string): string | null {
  if (p.length > 4096) return null;
  const base = p.slice(Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\")) + 1);
  if (STASH.test(p)) return "sensitive_path.credential_file";
  if (KEY_EXT.test(base)) {
    const stem = base.replace(KEY_EXT, "");
    // (A project's own relative path — `certs/dev/private.key` — is its development key, not a system's.)
    if (PRIVATE_WORD.test(stem) && !PUBLIC_WORD.test(stem) && !FIXTURE_DIR.test(p) && /^(?:\/|~|\$|%|[A-Za-z]:)/.test(p)) return "sensitive_path.credential_file";
  }
  if (KEYRING.test(p) && !SOURCE.test(base)) return "sensitive_path.credential_file";
  if (ACCOUNT_FILE.test(p)) return "sensitive_path.credential_file";
  return null;
}

/** Literals one of these paths holds (for paths.ts's prefilter). */
export const KEYS_HINTS = ["private", "priv", "secret", "secring", ".sth", "ssfs", "rsecssfs", "keyring", "@"];
