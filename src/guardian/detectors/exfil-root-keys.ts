/*
 * (Nineteenth round, "exf19") A credential that opens a whole account, named by the query key that carries it.
 *
 * A link may carry a scoped signature (a presigned download, a SAS `sig`): the issuing service put it there, and it
 * opens one object for a while. A password, or a key that names itself the account's own (`accountKey`, `masterKey`,
 * `shared_secret`), is never issued to travel in a URL: whoever receives the URL holds the account. The earlier rounds
 * read the key as one word (`password`, `pass`, `secret`); a key that qualifies the word (`bank_pass`, `adminPwd`,
 * `db-password`, `smtp.secret`) or writes it in another language (`senha`, `contraseña`, `hasło`, `Passwort`) carried
 * it past them.
 *
 * What passes: a key whose last word is a credential word but whose value is a flag or a number (`reset_password=1`,
 * `show_password=false`), a travel or event pass (`boarding_pass=LH4471ABC`: a pass word needs a value written as a
 * password is: letters and digits and a symbol other than `-`, `_`, `.`, or both cases), a key of something else (`cacheKey`, `sortKey`,
 * `idempotencyKey`: `key` counts only after a word that names the account's own key).
 */

/** Words that name a password or a secret, in the languages people write query keys in (lower case, accents kept). */
export const SECRET_WORDS: ReadonlySet<string> = new Set([
  "password",
  "passwd",
  "pwd",
  "passcode",
  "passphrase",
  "secret",
  // German, Dutch, Scandinavian, Finnish
  "passwort",
  "kennwort",
  "wachtwoord",
  "losenord",
  "lösenord",
  "passord",
  "adgangskode",
  "salasana",
  // Romance
  "senha",
  "contraseña",
  "contrasena",
  "contrasenya",
  "motdepasse",
  "parola",
  "parolă",
  // Slavic, Turkish, Indonesian, Vietnamese
  "haslo",
  "hasło",
  "heslo",
  "lozinka",
  "parol",
  "пароль",
  "şifre",
  "sifre",
  "katasandi",
  "matkhau",
]);

/** `pass` alone: a password in a key (`bank_pass`), or a ticket (`boarding_pass`); the value decides. */
export const PASS_WORDS: ReadonlySet<string> = new Set(["pass", "pw", "mdp"]);

/** Words before `key` that make it the account's own key (not a cache, sort or idempotency key). */
const ROOT_KEY_QUALIFIERS = new Set(["account", "master", "root", "admin", "private", "secret", "shared", "signing", "storage", "encryption"]);

/** Words before `secret` that make it an API client's secret, sent to the API that issued it. */
const API_CLIENT = new Set(["api", "app", "client", "consumer", "measurement"]);

/** A value written as a password is: 6 to 64 characters, a letter and a digit, and a symbol (not a code's `-`, `_`, `.`) or both cases. */
export const PASSWORD_LIKE = /^(?=[^\s]{0,64}\d)(?=[^\s]{0,64}\p{L})(?=[^\s]{0,64}(?:[^\p{L}\p{N}_.\-]|\p{Ll}[^\s]{0,64}\p{Lu}|\p{Lu}[^\s]{0,64}\p{Ll}))[^\s]{6,64}$/u;
/** A flag, a number, a placeholder or a word of the interface (`true`, `1`, `reset`, `***`, `{password}`). */
export const NOT_A_SECRET = /^(?:true|false|yes|no|on|off|null|none|undefined|\d{1,6}|\*+|x+|\.{3}|<[^>]*>|\{[^}]*\}|\$\{?[A-Za-z_]+\}?|[a-z]{1,12})$/i;
/** A long random value: base64, base64url or hex of 24 characters or more. */
const KEY_LIKE = /^[A-Za-z0-9+/_-]{24,512}={0,2}$/;

/** The words of a query key: split at `_`, `-`, `.`, blanks, brackets and camel-case humps; lower case. */
export function keyWords(key: string): string[] {
  if (key.length === 0 || key.length > 64) return [];
  const spaced = key.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2");
  return spaced
    .toLowerCase()
    .split(/[\s_.\-[\]]+/)
    .filter((w) => w.length > 0);
}

/**
 * Whether a query key and its value hand over a credential that opens an account: a secret word ending the key (any
 * language) with a value that is not a flag, `pass` with a value written as a password, or `key` after a word naming
 * the account's own key with a long random value. Returns what it is, or null.
 */
export function rootCredential(key: string, value: string): string | null {
  const words = keyWords(key);
  const last = words[words.length - 1];
  if (last === undefined || value.length < 4 || value.length > 512) return null;
  const v = value.trim();
  const two = words.slice(-2).join("");
  const three = words.slice(-3).join("");
  // An API client's secret (`api_secret`, `client_secret`) authenticates calls to the API that issued it: the older
  // checks judge it by its host.
  if (last === "secret" && words.length >= 2 && API_CLIENT.has(words[words.length - 2] as string)) return null;
  if (SECRET_WORDS.has(last) || SECRET_WORDS.has(two) || SECRET_WORDS.has(three)) {
    return !NOT_A_SECRET.test(v) && (PASSWORD_LIKE.test(v) || KEY_LIKE.test(v)) ? "password" : null;
  }
  if (PASS_WORDS.has(last)) return PASSWORD_LIKE.test(v) ? "password" : null;
  if ((last === "key" || last === "keys") && words.length >= 2 && ROOT_KEY_QUALIFIERS.has(words[words.length - 2] as string)) {
    return KEY_LIKE.test(v) ? "an account key" : null;
  }
  return null;
}
