import { NOT_A_SECRET, PASS_WORDS, PASSWORD_LIKE, SECRET_WORDS } from "./exfil-root-keys.js";

/*
 * (Twenty-fourth round, "exf24") A password written into a URL's path by the word that names it, in the forms the
 * older path checks did not read (exfiltration.ts judgeUrl, finding `exfiltration.request` / `exfiltration.link`;
 * docs/detection.md, "exf24: a password in a URL's path"):
 *
 * - the word as a segment of its own, then the password as the next one, where the word is a short or a translated one
 *   (`/u/ana/pw/Kastanje-Boom-1987!/`, `/senha/Lua#2026x/`, `/пароль/…`): the older check knew only `password`,
 *   `pass`, `secret` and a few English keys;
 * - the word and the password in one segment, joined by `-`, `_`, `=`, `:` or `~` (`/password-Vz7!labware2026/`,
 *   `/pwd=Tr0mbone#9/`, `/haslo_Zima2026!x/`).
 *
 * The value must be written as a password is (exfil-root-keys.ts: a letter, a digit, and a symbol or both cases, 6 to
 * 64 characters; after `pass`, `pw` or `mdp`, a symbol: a wallet pass's or a ticket's serial has none), so a page
 * about passwords passes: `/password-reset/`, `/passwort-vergessen/`, `/pw/settings/`,
 * `/password-policy-2024/`. Whoever receives the URL (its host's logs, a redirect's target) holds the account.
 *
 * Bounded: 32 segments of 128 characters at most, no regex with nested quantifiers (PASSWORD_LIKE runs on 64 at most).
 */

const WORD_THEN_VALUE = /^([\p{L}]{2,16})[-_=:~](.{6,64})$/u;

/** A symbol a code or a serial does not hold (not `-`, `_`, `.`). */
const SYMBOL = /[^\p{L}\p{N}_.\-]/u;

const secretWord = (w: string) => SECRET_WORDS.has(w) || PASS_WORDS.has(w);
/** A value written as a password; after `pass`, `pw` or `mdp` (a wallet's or a boarding pass, a serial) with a symbol too. */
const passwordValue = (word: string, v: string) => v.length >= 6 && v.length <= 64 && !NOT_A_SECRET.test(v) && PASSWORD_LIKE.test(v) && (!PASS_WORDS.has(word) || SYMBOL.test(v));

/** Whether decoded path segments state a password by the word that names it. */
export function pathCredential(segments: readonly string[]): boolean {
  const list = segments.slice(0, 32);
  for (let i = 0; i < list.length; i++) {
    const s = list[i] as string;
    if (s.length > 128) continue;
    const lower = s.toLowerCase();
    if (secretWord(lower) && i + 1 < list.length && passwordValue(lower, list[i + 1] as string)) return true;
    const m = WORD_THEN_VALUE.exec(s);
    const word = m === null ? "" : (m[1] as string).toLowerCase();
    if (m !== null && secretWord(word) && passwordValue(word, m[2] as string)) return true;
  }
  return false;
}
