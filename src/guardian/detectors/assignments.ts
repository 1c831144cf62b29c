import { entropy } from "./exfiltration.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * Credentials written as an assignment — `name = value`, `NAME=value`, YAML `name: value`, JSON `"name": "value"` —
 * where the name says secret and the value looks random. This catches the secrets without a recognisable prefix
 * (database passwords, OAuth client secrets, signing keys) in loaded configs and env dumps.
 *
 * Linear time: one search for the vocabulary, then at each hit a bounded look back over the name and one sticky match
 * of the separator and value.
 */

/**
 * Words a secret's name contains, in lower, Capitalised or UPPER case. `key` only as a suffix (`_key`, `-key`, `Key`
 * after a lower-case letter or digit, `_KEY`), never alone or inside a word (`monkey`, `keyboard`).
 */
const VOCABULARY = /[Ss]ecret|SECRET|[Pp]assw(?:or)?d|PASSW(?:OR)?D|[Pp]wd|PWD|[Pp]assphrase|PASSPHRASE|[Tt]oken|TOKEN|[Cc]redential|CREDENTIAL|[Aa]pi[Kk]ey|APIKEY|[Aa]uth|AUTH|(?<=[a-z0-9])Key|[_.-][Kk]ey|[_.-]KEY/g;
/** After the name: optional closing quote, the separator, optional opening quote, the value. */
const AFTER_NAME = /[A-Za-z0-9_.-]{0,60}["']?[ \t]{0,8}(?::=|=>|=|:)[ \t]{0,8}(["'`]?)([^\s"'`,;]{8,256})/y;

/** Values that are not secrets however they are named: placeholders, references, examples, identifiers. */
const NOT_A_SECRET = [
  /example|sample|dummy|placeholder|changeme|change_me|your[_-]|xxxx|\*{3}|redacted|fake|test|secret123|password123/i,
  /^[<{[(]|^\$|^%|\$\{|\{\{|^process\.env|^os\.environ|^env\(|\(/,
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, // UUID
  /^(?:sha(?:1|256|384|512)|md5)[-:]/i, // integrity fields
  /^(?:true|false|null|none|undefined|required|optional|string|number|boolean)$/i,
  /^https?:\/\/|^[a-z][a-z0-9+.-]*:\/\/[^:@]*$/i, // a URL without a password in it is an address, not a secret
  /^[A-Za-z]+(?:[_.-][A-Za-z]+)*$/, // words (an env var name, a setting, a type)
  /^\d+(?:\.\d+)*$/, // numbers and versions
];

/** High entropy: long and random enough that it is unlikely to be a word, a name or a constant. */
function looksRandom(value: string): boolean {
  const classes = Number(/[a-z]/.test(value)) + Number(/[A-Z]/.test(value)) + Number(/[0-9]/.test(value)) + Number(/[^A-Za-z0-9]/.test(value));
  if (value.length >= 20) return classes >= 2 && entropy(value) >= 3.7;
  if (value.length >= 12) return classes >= 3 && entropy(value) >= 3.3;
  return classes >= 3 && entropy(value) >= 2.9;
}

export function detectSecretAssignments(sites: StringSite[]): Detection[] {
  const out: Detection[] = [];
  for (const site of sites) {
    const v = site.value;
    VOCABULARY.lastIndex = 0;
    let lastEnd = 0;
    for (let m; (m = VOCABULARY.exec(v)) !== null; ) {
      if (m.index < lastEnd) continue;
      AFTER_NAME.lastIndex = m.index + m[0].length;
      const a = AFTER_NAME.exec(v);
      if (!a) continue;
      const value = a[2] as string;
      if (NOT_A_SECRET.some((re) => re.test(value)) || !looksRandom(value)) continue;
      const end = AFTER_NAME.lastIndex;
      out.push({ type: "secrets.assignment", path: site.path, start: end - value.length, end });
      lastEnd = end;
      VOCABULARY.lastIndex = end;
    }
  }
  return out;
}
