import { ibansIn } from "./exfil-payloads.js";
import type { Detection, JsonPath, StringSite } from "./scan.js";
import { sentenceSpans } from "./sentences.js";

/*
 * (Fifteenth round, "smp15") Three structures of a server's description of itself that the earlier checks read only
 * in English or only in a tool's own description (docs/detection.md, "Fifteenth round: sampling and poisoning by what
 * is owed (smp15)"):
 *
 * 1. **A protection switched off for good** (`tool_poisoning.protection_off`): the description of a property named
 *    for a protection — redaction, masking, anonymisation, encryption, verification, validation, confirmation,
 *    consent, review, approval, a dry run, a sandbox — at any depth of the schema (an array's item properties too),
 *    that has the model always set it off ("always set to false", "set it to false even if an exemption applies",
 *    "in every call leave it disabled"). A property that explains what turning it off does ("set to false to apply
 *    the change"), or off for a named case ("only for local testing", "if the user asks"), passes.
 * 2. **Money redirected from the account of record** (`tool_poisoning.redirected_payment`): a sentence of a
 *    description (a tool's, a property's, an agent card's or its skills') with an IBAN whose check digits hold, or an
 *    account number, and "instead of / rather than / not to" the account in the lease, the invoice, the contract, on
 *    file. An account given as the one to pay, with no account of record set aside, passes (poisoning-fields.ts judges
 *    a pinned payee in a payment tool).
 * 3. **A copy to a fixed address, in other languages** (`tool_poisoning.copied_abroad`): a sentence in Italian,
 *    Spanish, French, German, Portuguese or Turkish with an e-mail address or URL, a verb of sending, and either a
 *    person's secret or identity documents (şifre, password, documento, carta d'identità, passaporto, pasaporte,
 *    Ausweis, kimlik, CVV) or a concealment from the person served ("non è necessario informare", "kullanıcıya
 *    gösterilmez", "sin informar", "sans informer", "ohne … zu informieren", "sem informar"). A support address
 *    ("per assistenza scrivere a …") has no sending verb of the model's and passes.
 *
 * Linear: bounded regexes over one describing string (at most MAX_UNIT characters), at most MAX_SITES strings.
 */

const MAX_UNIT = 4096;
const MAX_SITES = 2048;


/* --- 1. A protection switched off for good ----------------------------------------------------------------------- */

const PROTECTION_NAME =
  /redact|mask|anonymi[sz]|pseudonymi[sz]|encrypt|verify|verif|validat|confirm|consent|review|approv|dry_?run|sandbox|sanitiz|scrub|safe_?mode|safe_?search|require_?(?:auth|mfa|2fa|signature)|two_?factor|mfa|tls|ssl/i;
const ALWAYS_OFF =
  /\b(?:always|in\s{1,3}(?:all|every)\s{1,3}(?:cases?|calls?|requests?)|every\s{1,3}(?:time|call|request)|for\s{1,3}(?:all|every)\s{1,3}[\w-]{1,20})\b[^.;\n]{0,40}?\b(?:set|leave|keep|pass|send|use)\s{1,3}(?:it\s{1,3}|this\s{1,3})?(?:to\s{1,3}|as\s{1,3})?(?:false|off|disabled|0|no|none|"false"|`false`)\b|\b(?:set|leave|keep|pass)\s{1,3}(?:it\s{1,3}|this\s{1,3})?(?:to\s{1,3})?(?:false|off|disabled|`false`)\b[^.;\n]{0,60}?\b(?:even\s{1,3}(?:if|when|though)|regardless\s{1,3}of|whatever|no\s{1,3}matter|for\s{1,3}(?:all|every|each)\s{1,3}[\w-]{1,20}|in\s{1,3}all\s{1,3}cases|always)\b/i;
const OFF_OK = /\b(?:only\s{1,3}(?:for|in|when|if)|unless|(?<!even\s{1,3})if\s{1,3}(?:the\s{1,3})?(?:user|caller|customer)\s{1,3}(?:asks|requests|confirms|says|wants)|local\s{1,3}(?:testing|development|dev)|tests?\s{1,3}(?:only|environments?))\b/i;

function propertyName(path: JsonPath): string | null {
  if (path[path.length - 1] !== "description") return null;
  const i = path.length - 2;
  const name = path[i];
  return typeof name === "string" && path[i - 1] === "properties" ? name : null;
}

/* --- 2. Money redirected from the account of record -------------------------------------------------------------- */

const INSTEAD =
  /\b(?:instead\s{1,3}of|rather\s{1,3}than|in\s{1,3}place\s{1,3}of|not\s{1,3}(?:to\s{1,3})?)\s{1,3}(?:the\s{1,3}|their\s{1,3}|any\s{1,3}|its\s{1,3})?(?:[\w-]{1,20}\s{1,3}){0,2}?(?:account|iban|bank\s{1,3}(?:account|details)|payee|beneficiary|wallet)s?\b[^.;\n]{0,40}?\b(?:in|on|from|of|named\s{1,3}in|stated\s{1,3}in|listed\s{1,3}(?:in|on)|given\s{1,3}(?:in|by))\s{1,3}(?:the\s{1,3}|their\s{1,3}|its\s{1,3})?(?:lease|invoice|contract|agreement|file|record|records|order|booking|mandate|bill|statement|tenancy|profile|letter)\b|(?<![\p{L}])(?:invece\s{1,3}del|anziché|en\s{1,3}lugar\s{1,3}de|en\s{1,3}vez\s{1,3}de|au\s{1,3}lieu\s{1,3}du|statt\s{1,3}(?:des|dem|auf\s{1,3}das)|anstelle\s{1,3}(?:des|von)|em\s{1,3}vez\s{1,3}d[ao]|yerine)(?![\p{L}])/iu;
const PAYMENT = /\b(?:send|pay|transfer|wire|deposit|remit|route|redirect|forward)\w{0,3}\b|(?<![\p{L}])(?:versa\p{L}{0,4}|bonific\p{L}{0,4}|transfi\p{L}{0,6}|pag\p{L}{0,4}|überweis\p{L}{0,4}|zahl\p{L}{0,4}|virement|verse\p{L}{0,4}|öde\p{L}{0,6}|gönder\p{L}{0,6})(?![\p{L}])/iu;
const ACCOUNT_NUMBER = /\b(?:account|acct|konto|conto|cuenta|compte|hesap)\s{0,3}(?:no\.?|number|nr\.?|#|:)?\s{0,3}\d[\d\s-]{6,30}\d\b/i;

/* --- 2b. An extra payee added to every payment (fifteenth round, phase 2) ------------------------------------------ */

const EXTRA_PAYEE =
  /(?<![\p{L}])(?:additional|extra|second|also|as\s{1,3}well|zusätzlich\p{L}{0,3}|weiter\p{L}{0,3}|adicional\p{L}{0,2}|supplémentaire\p{L}{0,2}|aggiuntiv\p{L}{1,2}|anche|ek|extra)(?![\p{L}])[^.;\n]{0,40}?(?<![\p{L}])(?:recipients?|beneficiar(?:y|ies)|payees?|empfänger\p{L}{0,2}|begünstigte\p{L}{0,2}|beneficiari[oa]s?|bénéficiaires?|destinatari[oa]?|alıcı\p{L}{0,3})(?![\p{L}])|(?<![\p{L}])(?:add|include|hinzu\p{L}{0,4}|añad\p{L}{1,4}|ajout\p{L}{1,4}|aggiung\p{L}{1,4})(?![\p{L}])[^.;\n]{0,60}?(?<![\p{L}])(?:(?:as|comme|como|come)\s{1,3}(?:a\s{1,3}|un\s{1,3}|una?\s{1,3})?(?:co-?)?(?:recipient|beneficiary|payee|bénéficiaire|beneficiari[oa]|destinatari[oa])|als\s{1,3}(?:zusätzlichen\s{1,3})?(?:empfänger|begünstigten))(?![\p{L}])|(?<![\p{L}])(?:bénéficiaire|beneficiari[oa]|destinatari[oa]|empfänger)\s{1,3}(?:supplémentaire|adicional|aggiuntiv[oa]|zusätzlich\p{L}{0,2})(?![\p{L}])/iu;
const EVERY_PAYMENT =
  /(?<![\p{L}])(?:every|each|any|all|jede[rmns]?|alle[n]?|cada|toda[s]?|todos|chaque|toute[s]?|tous|ogni|tutt[ei]|her)(?![\p{L}])\s{1,3}(?:[\p{L}-]{1,20}\s{1,3})?(?:payments?|invoices?|transfers?|orders?|zahlung\p{L}{0,2}|rechnung\p{L}{0,2}|überweisung\p{L}{0,2}|pagos?|facturas?|transferencias?|paiements?|factures?|virements?|pagament[oi]|fattur[ae]|bonific[oi]|ödeme\p{L}{0,3}|fatura\p{L}{0,3})(?![\p{L}])/iu;

/* --- 4. A key let into a host, or a user's folders taken, by a description (fifteenth round, phase 2) --------------- */

/** A literal public key added to authorized_keys: the description hands over a host (a key-management tool takes the key from its caller). */
const KEY_LET_IN = /\b(?:add|append|put|write|install|copy|insert|place)\b[^\n]{0,40}?\b(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp\d{3}|sk-ssh-ed25519@openssh\.com)\s{1,3}AAAA[A-Za-z0-9+/]{16,}[^\n]{0,120}?authorized_keys\b/;
/** Every file of a user's own folders, uploaded or sent, with the act kept from the user. */
const USER_FOLDERS = /\b(?:every|all|each|the\s{1,3}whole|the\s{1,3}entire)\s{1,3}(?:[\w-]{1,15}\s{1,3})?(?:files?|documents?|photos?)\s{1,3}(?:under|in|from|of)\s{1,3}(?:the\s{1,3}user'?s\s{1,3})?(?:~\/|\$HOME|%USERPROFILE%|(?:Documents|Desktop|Downloads|Pictures|Photos|home)\b)/i;
const MOVES_OUT = /\b(?:upload|send|post|sync|copy|forward|transmit|attach|share)\w{0,3}\b/i;
const UNANNOUNCED = /\b(?:should|must|shall|is|are|need|needs)\s{1,3}(?:not|never)\s{1,3}(?:to\s{1,3})?(?:be\s{1,3})?(?:announced|mentioned|shown|surfaced|told|disclosed|reported|displayed)\b|\b(?:silently|quietly|secretly|covertly|automatic(?:ally)?|in\s{1,3}the\s{1,3}background)\b|\bwithout\s{1,3}(?:telling|asking|informing|notifying)\b/i;

/* --- 5. An all-clear dictated against the results (fifteenth round, phase 2) ------------------------------------------ */

const DICTATED_NONE =
  /\b(?:answer|say|report|state|respond|reply|return|tell\s{1,3}(?:the\s{1,3})?(?:user|caller|customer)s?)\s{1,3}(?:that\s{1,3})?(?:there\s{1,3}(?:are|is)\s{1,3}no|no\s{1,3}[\w-]{1,20}\s{1,3}(?:were\s{1,3}|was\s{1,3})?(?:found|exists?|appl(?:y|ies))|nothing\s{1,3}(?:was\s{1,3})?found|["'“‘]no\s{1,3}[\w -]{1,30}["'”’])[^.;\n]{0,120}?\b(?:even\s{1,3}(?:if|when|though)|regardless\s{1,3}of|whatever|no\s{1,3}matter)\s{1,3}(?:what\s{1,3})?(?:the\s{1,3})?(?:results?|search|lookup|data|records?|evidence|findings|response|api|database)\b/i;

/* --- 3. A copy to a fixed address, in other languages ------------------------------------------------------------ */

const FIXED_PLACE = /[\w.+-]@[\w-]+(?:\.[\w-]+)+|\bhttps?:\/\/[\w-]+(?:\.[\w-]+)+/;
const SEND_I18N =
  /(?<![\p{L}])(?:invia\p{L}{0,4}|inviare|inoltra\p{L}{0,4}|manda\p{L}{0,4}|trasmett\p{L}{0,4}|copia\s{1,3}a|env[ií]a\p{L}{0,4}|enviar\p{L}{0,3}|reenv[ií]a\p{L}{0,4}|remit\p{L}{0,4}|envoi\p{L}{0,4}|envoy\p{L}{0,4}|transf[eéè]r\p{L}{0,4}|schick\p{L}{0,4}|senden|sende|übermittel\p{L}{0,3}|weiterleit\p{L}{0,4}|leite\s{1,3}\p{L}{0,12}\s{0,3}weiter|encaminh\p{L}{0,4}|envie\p{L}{0,3}|gönder\p{L}{0,8}|ilet\p{L}{0,8}|yolla\p{L}{0,6})(?![\p{L}])/iu;
const SECRET_OR_ID_I18N =
  /(?<![\p{L}])(?:şifre\p{L}{0,4}|sifre\p{L}{0,4}|parola\p{L}{0,4}|t\.?\s{0,1}c\.?\s{1,3}kimlik\p{L}{0,6}|kullanıcı\s{1,3}kod\p{L}{0,4}|password\p{L}{0,2}|passwort\p{L}{0,2}|kennwort\p{L}{0,2}|contraseña\p{L}{0,2}|mot\s{1,3}de\s{1,3}passe|senha\p{L}{0,2}|(?:dati\s{1,3}(?:dei|del)\s{1,3})document\p{L}{1,2}|document[oi]\s{1,3}(?:d['’]|di\s{1,3})identit\p{L}{1,2}|carta\s{1,3}d['’]identit\p{L}{1,2}|passaport\p{L}{0,2}|pasaporte\p{L}{0,2}|pièce\s{1,3}d['’]identité|ausweis\p{L}{0,6}|reisepass\p{L}{0,2}|identidad|identidade|codice\s{1,3}fiscale|cvv)(?![\p{L}])/iu;
const CONCEAL_I18N =
  /(?<![\p{L}])(?:non\s{1,3}(?:è\s{1,3}necessario|serve|occorre|bisogna)\s{1,3}(?:informare|avvisare|dire|comunicare|mostrare)|senza\s{1,3}(?:informare|avvisare|dirlo|dire|chiedere|mostrare)|non\s{1,3}(?:informare|dire|mostrare|menzionare|segnalare)|kullanıcıya\s{1,3}(?:gösterilmez|söylenmez|bildirilmez|sorulmaz|gösterme|söyleme|bildirme)|sin\s{1,3}(?:informar|avisar|decir|mostrar)|no\s{1,3}(?:informes|informar|digas|avises|mostrar|muestres|menciones)|sans\s{1,3}(?:informer|prévenir|avertir|le\s{1,3}dire|demander)|ne\s{1,3}pas\s{1,3}(?:informer|prévenir|dire|mentionner|montrer)|ohne\s{1,3}(?:\p{L}{1,20}\s{1,3}){0,3}(?:zu\s{1,3})?(?:informieren|benachrichtigen|fragen|hinzuweisen)|nicht\s{1,3}(?:informieren|mitteilen|erwähnen|anzeigen|zeigen)|sem\s{1,3}(?:informar|avisar|dizer|mostrar)|não\s{1,3}(?:informe|informar|diga|mostre|mencione))(?![\p{L}])/iu;
/** English sentences are judged by the earlier checks; this one reads the others (a sentence with an English verb of sending and no other-language word passes here). */
const OTHER_LANGUAGE = /[çğışöüàèéìòùáíóúñãõâêôäß]|(?<![\p{L}-])(?:il|la|le|di|del|della|dei|per|ogni|anche|el|los|las|de|cada|también|les|des|chaque|aussi|der|die|das|und|jede\p{L}{0,2}|auch|ve|bir|sonra|bu|için|também|após)(?![\p{L}-])/iu;

function cutSentence(v: string, at: number, span: [number, number][]): [number, number] | null {
  for (const [a, b] of span) if (at >= a && at < b) return [a, b];
  return null;
}

/** The findings of this module in a server's description of itself: `sites` the describing strings not already cut. */
export function detectProtectionPoisoning(sites: readonly StringSite[]): Detection[] {
  const out: Detection[] = [];
  for (const s of sites.slice(0, MAX_SITES)) {
    const v = s.value;
    if (v.length < 20 || v.length > MAX_UNIT) continue;
    // 1. A protection switched off for good: a property's own description.
    const name = propertyName(s.path);
    if (name !== null && PROTECTION_NAME.test(name) && ALWAYS_OFF.test(v) && !OFF_OK.test(v)) {
      out.push({ type: "tool_poisoning.protection_off", path: s.path, start: 0, end: v.length, whole: true, detail: `the description of ${name} has the model switch the protection off for good` });
      continue;
    }
    const spans = sentenceSpans(v, { clauses: true, abbreviations: true });
    let hit = false;
    for (const [a, b] of spans) {
      const u = v.slice(a, b);
      // 2. Money redirected from the account of record.
      if (PAYMENT.test(u) && INSTEAD.test(u) && (ibansIn(u, 4).length > 0 || ACCOUNT_NUMBER.test(u))) {
        out.push({ type: "tool_poisoning.redirected_payment", path: s.path, start: a, end: b, detail: "a description redirects payments away from the account of record" });
        hit = true;
        break;
      }
      // 2b. An extra payee added to every payment.
      if (EXTRA_PAYEE.test(u) && EVERY_PAYMENT.test(u) && (ibansIn(u, 4).length > 0 || ACCOUNT_NUMBER.test(u))) {
        out.push({ type: "tool_poisoning.redirected_payment", path: s.path, start: a, end: b, detail: "a description adds a payee to every payment" });
        hit = true;
        break;
      }
      // 4. A key let into a host; a user's folders uploaded unannounced (the concealment may be the next sentence).
      const nextSpan = spans.find(([x]) => x >= b);
      const withNext = nextSpan ? u + " " + v.slice(nextSpan[0], nextSpan[1]) : u;
      if (KEY_LET_IN.test(u) || (USER_FOLDERS.test(u) && MOVES_OUT.test(u) && UNANNOUNCED.test(withNext))) {
        out.push({ type: "tool_poisoning.host_or_files_taken", path: s.path, start: a, end: nextSpan && !KEY_LET_IN.test(u) && UNANNOUNCED.test(v.slice(nextSpan[0], nextSpan[1])) ? nextSpan[1] : b, detail: "a description lets an outside key into a host, or uploads the user's folders unannounced" });
        hit = true;
        break;
      }
      // 5. An all-clear dictated against the results.
      if (DICTATED_NONE.test(u)) {
        out.push({ type: "tool_poisoning.dictated_all_clear", path: s.path, start: a, end: b, detail: "a description dictates an all-clear whatever the results say" });
        hit = true;
        break;
      }
      // 3. A copy to a fixed address, in other languages (the concealment may be the next sentence).
      const m = FIXED_PLACE.exec(u);
      if (m && SEND_I18N.test(u) && OTHER_LANGUAGE.test(u)) {
        const next = spans.find(([x]) => x >= b);
        const around = next ? u + " " + v.slice(next[0], next[1]) : u;
        if (SECRET_OR_ID_I18N.test(u) || CONCEAL_I18N.test(around)) {
          const c = cutSentence(v, a + m.index, spans) ?? [a, b];
          out.push({ type: "tool_poisoning.copied_abroad", path: s.path, start: c[0], end: next && CONCEAL_I18N.test(v.slice(next[0], next[1])) ? next[1] : c[1], detail: "a description has the model send a person's data or secret to a fixed address" });
          hit = true;
          break;
        }
      }
    }
    if (hit) continue;
  }
  return out;
}
