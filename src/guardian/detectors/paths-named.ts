/*
 * Twenty-first round ("cps21"): **a file its owner named for the secrets it holds** (docs/detection.md, "Twenty-first
 * round"). People keep passwords, PINs and access tokens in files they name for them — "passwords.xlsx", a PIN file
 * next to a hardware module's configuration, an authorisation token saved as text —, in their own language. What
 * makes reading such a file harmful is the name its owner gave it, not the product or the folder: a file whose name
 * is the secret's own noun (the plural "passwords" in any of several languages, "token", a PIN) in a format that holds
 * data (text, a table, a document, a key-value file) or a `.pin` file.
 *
 * Not a file *about* secrets or made for testing them: a policy, a reset or rotation design, a word list of common or
 * breached passwords (a strength checker's data), a translation namespace (`locales/de/passwords.json`), design tokens,
 * source code or documentation (`.ts`, `.py`, `.md`), or anything under a test, fixture, example or locale tree.
 *
 * One bounded regex over the base name and two over the path; the base name is at most 255 characters. The prefilter
 * literals are ASCII (literals.ts): a name only in Polish or Cyrillic letters ("hasła", "пароли") is read when another
 * literal of the message opens the scan.
 */

/** The secret's own noun as a word of the file's stem, and a data or document format (or none). */
const NAMED =
  /(?:^|[-_. ])(?:passwords|passwds|pwds|passwörter|passworter|kennwörter|kennworter|contraseñas|contrasenas|senhas|şifreler|sifreler|şifrelerim|hasła|hasla|пароли|паролі|wachtwoorden|lösenord|losenord|salasanat|mots?[-_ ]de[-_ ]passe|token|pin|pincode|pin[-_]code)(?:[-_ ][\p{L}\d-]{1,40}){0,4}\.(?:txt|csv|tsv|xlsx?|ods|odt|docx?|rtf|json|ya?ml|dat|ini|conf|cfg|kdbx|pdf|numbers|pages|note)$|\.pin$/iu;
/** What is about secrets or made to test them, not a store of one's own. */
const ABOUT =
  /(?:^|[-_. ])(?:common|weak|top|most|breached|pwned|banned|blocked|black-?list|block-?list|deny-?list|forbidden|leaked|dictionary|wordlist|rockyou|sample|example|fake|dummy|mock|test|tests|policy|policies|reset|resets|rotation|change|manager|rules|requirements|design|spec|schema|strength|generator|validator|i18n|l10n|translations?|messages|strings|docs?|readme|changelog|template|colou?rs?|themes?|spacing|typography|fonts?|icons?)(?:$|[-_. ])/i;
const ABOUT_TREE = /[/\\](?:tests?|__tests__|spec|specs|fixtures?|examples?|samples?|locales?|i18n|l10n|lang|translations|node_modules|docs?|wordlists?|seclists|design-?tokens?|tokens|themes?|styles?)[/\\]/i;

/** The kind of a path named for the secrets it holds, or null. */
export function namedKind(p: string): string | null {
  if (p.length > 4096) return null;
  const cut = Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\"));
  const base = p.slice(cut + 1);
  if (base.length > 255 || !NAMED.test(base) || ABOUT.test(base) || ABOUT_TREE.test(p)) return null;
  return "sensitive_path.credential_file";
}

/** Literals these names hold, for paths.ts's prefilter (pairs of characters rare in ordinary text). */
export const NAMED_HINTS = ["passw", "kennw", "contrase", "senha", "ifre", "hasla", "wachtwoord", "senord", "salasan", "de passe", "de-passe", "de_passe", ".pin", "pincode", "pin_code", "pin-code", "token"];
