import type { StringSite } from "./scan.js";

/*
 * (Fifteenth round, "sec15") One person's own data used where it is meant to go, by structure:
 *
 * 1. **One identity number to a government service** (`toGovernment`): a call whose every web address is on a
 *    government's domain (`.gouv.fr`, `.gov`, `.gov.uk`, `.gc.ca`, `.gob.es`, `.bund.de`, `.admin.ch`, `.gv.at`,
 *    `.gov.tr`…) carrying one identity number and no card: a tax simulator, a benefits form, the authority that issued
 *    the number. Two numbers, a card, or any address off a government's domain still count.
 * 2. **One card paying for the writer** (`selfPurchase`): "Register me …", "book me …", "sign me up", "for me",
 *    "myself", with one card and nothing else; a third person's card ("the customer's card", "her card") still counts.
 */

const GOV_HOST = /(?:^|\.)(?:gouv\.fr|gov|gov\.[a-z]{2}|gouv\.[a-z]{2}|gc\.ca|canada\.ca|gob\.[a-z]{2}|gub\.uy|bund\.de|admin\.ch|gv\.at|belgium\.be|overheid\.nl|government\.nl|gov\.it|europa\.eu|govt\.nz|go\.jp|go\.kr|gov\.in|nic\.in)$/;
const URL_IN = /\bhttps?:\/\/[^\s"'<>`]{1,2048}/gi;

/** Every web address in the sites is on a government's domain (and there is one at least). */
export function toGovernment(sites: readonly StringSite[]): boolean {
  let seen = 0;
  for (const s of sites) {
    if (!s.value.includes("://")) continue;
    URL_IN.lastIndex = 0;
    for (let m; (m = URL_IN.exec(s.value)) !== null; ) {
      let host: string;
      try {
        host = new URL(m[0]).hostname.toLowerCase();
      } catch {
        return false;
      }
      if (!GOV_HOST.test(host)) return false;
      if (++seen > 16) return false;
    }
  }
  return seen > 0;
}

const SELF = /\b(?:register|book|enrol|enroll|sign|reserve|pay|charge|renew|subscribe|check)[ \t]{1,3}me\b|\bfor[ \t]{1,3}(?:me|myself)\b|\bmyself\b/i;
const OTHERS_CARD = /\b(?:customer|client|guest|patient|member|donor|his|her|their|user|employee|tenant)(?:['’]s)?[ \t]{1,3}(?:[a-z]{1,12}[ \t]{1,2})?card\b/i;

/** The text pays for the writer ("register me", "for me") and names no one else's card. */
export function selfPurchase(text: string): boolean {
  return SELF.test(text) && !OTHERS_CARD.test(text);
}
