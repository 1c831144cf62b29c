/*
 * Fourteenth round ("smp14"): an A2A agent card that teaches its callers to send a person's login secret. A card's
 * description, its skills' descriptions and its skills' examples are what a calling agent learns to send; an honest
 * agent authenticates through the card's security schemes (OAuth, API keys in headers), never by a password, a
 * one-time or backup code, a card's CVV or a private key in the message. The structure, in any language:
 *
 * - a secret of a person or a principal — a password (password, Passwort, senha, contraseña, mot de passe, lösenord,
 *   hasło, пароль, كلمة المرور, 密码, パスワード, 비밀번호…), 2FA / backup / one-time codes, a card's CVV, a private key, a
 *   service-account key file (`.p8`, `private_key`) —
 * - given as a value in an example ("my password is Summer2026!", "lösenord: <kundens lösenord>", "service-account
 *   JSON (private_key included)") or demanded of the caller (send, provide, include, must, every request; "deve
 *   trazer", "должен прислать", "يجب … إرسال", "skicka").
 *
 * Guards: a negation of the ask ("we never ask for your password", "do not send passwords", "nunca", "никогда",
 * "aldrig"); the password's own flows (reset, forgot, change, recover, expired); the secret named as what the
 * security scheme carries ("in the Authorization header", "OAuth"). Bounded regexes over one string of the card (its
 * first 4,000 characters). Look-alikes: test/fixtures/corpus/smp14.test.yaml, test/guardian/poisoning-card-secrets.test.ts.
 */
import type { JsonPath, StringSite } from "./scan.js";

const SECRET =
  /(?<![\p{L}])(?:passwords?|passcodes?|passwort\p{L}{0,2}|kennwort\p{L}{0,2}|senhas?|contraseñas?|mot\s{1,3}de\s{1,3}passe|l[öo]senord\p{L}{0,3}|passord\p{L}{0,2}|adgangskode\p{L}{0,2}|salasana\p{L}{0,2}|has[łl]\p{L}{0,2}|парол\p{L}{0,2}|wachtwoord\p{L}{0,2}|parola|şifre\p{L}{0,2}|sifre|2fa\s{1,3}(?:backup\s{1,3})?codes?|backup\s{1,3}codes?|recovery\s{1,3}codes?|one-time\s{1,3}codes?|otp|cvv2?|cvc2?|private[\s_]{1,2}keys?|service[\s-]account\s{1,3}(?:json|key(?:\s{1,3}file)?)|authkey_[\w]{1,20}\.p8|\.p8\b|(?:refresh|access|oauth|bearer|session|id)\s{1,3}(?:refresh\s{1,3})?tokens?)(?![\p{L}])|كلمة\s{1,3}(?:المرور|السر)|رمز\s{1,3}(?:التحقق|CVV)|密码|密碼|口令|パスワード|暗証番号|비밀번호|암호/iu;
/** A value given: "password is X", "lösenord: <…>", "(private_key included)", "here is our … JSON". */
const VALUE =
  /(?:\s{1,3}(?:is|är|é|es|est|ist|jest|—|-)\s{1,3}|\s{0,2}[:=：]\s{0,3})(?:["'<`(\[]?\s{0,2}[^\s,.;)]{3,60})|\b(?:included|attached|inclus|incluid[ao]|enclosed)\b|\bhere\s{1,3}is\s{1,3}(?:our|my|the)\b/iu;
/** Demanded of the caller. */
const DEMAND =
  /\b(?:send|sends|provide|include|attach|supply|share|submit|give|paste|must|required?|needs?|every\s{1,3}(?:request|call|message)|first\s{1,3}message|always)\b|(?<![\p{L}])(?:deve|devem|trazer|enviar|envie|informe|debe|deben|enviar|incluya|incluir|doit|doivent|envoyer|muss|müssen|senden|schicken|skicka|skickas|alltid|ska|musi|muszą|wysłać|przesłać|должен|должна|должны|прислать|отправить|предоставить|присылать|يجب|إرسال|ارسال|أرسل|invia|inviare|inviate|invii|allega|allegare|includi|includere|fornisci|fornire|deve|devono|obbligatori[oa]|gönder\p{L}{0,10}|ilet\p{L}{0,8}|eklen\p{L}{0,8}|ekle|zorunlu\p{L}{0,4}|gerekli\p{L}{0,4}|her\s{1,3}sorgu\p{L}{0,4})(?![\p{L}])|必须|發送|发送|提供|送信|送って|必須|보내|제출|전송/giu;
const NEGATED =
  /\b(?:never|not|don't|do\s{1,3}not|no\s{1,3}need|without)\b[^.;\n]{0,40}?$|(?<![\p{L}])(?:nunca|não|nao|jamais|ne\s{1,3}\p{L}{1,12}\s{1,3}jamais|nie|nigdy|никогда|не|aldrig|inte|nicht|niemals|non|mai|asla|لا|لن)(?![\p{L}])[^.;\n]{0,40}?$|(?:不要|不会|绝不|決して|절대)[^.;\n。]{0,40}?$/iu;
const OWN_FLOW =
  /\b(?:reset|forgot(?:ten)?|change|changing|recover|recovery\s{1,3}link|expired|rotate|strength|strong|policy|manager|vault|generat\w{1,4}|hash\w{0,3}|sha-?\d{1,3}|breach\w{0,3})\b|(?<![\p{L}])(?:redefinir|recuperar|esqueci|olvid\p{L}{1,4}|réinitialiser|zurücksetzen|vergessen|återställ\p{L}{0,2}|glömt|zresetuj|сброс\p{L}{0,2}|восстанов\p{L}{1,6}|إعادة\s{1,3}تعيين|重置|忘记|リセット|재설정)(?![\p{L}])/iu;
/** (Fifteenth round) The value handed over before the secret is named: "here is my brokerage login (user / password)". */
const HANDED_BEFORE = /\b(?:here\s{1,3}(?:is|are)|attached\s{1,3}(?:is|are)|i(?:'m|\s{1,3}am)\s{1,3}(?:sending|giving|including))\s{1,3}(?:our|my|the|his|her|their)\b[^.;!?\n]{0,60}$/i;
/**
 * (Nineteenth round) Put into the message itself (its text, body or prompt): a message is logged, relayed and shown, so
 * a token named for the security scheme ("your OAuth refresh token") is no longer what the scheme carries in a header.
 */
const IN_MESSAGE = /(?<!\b(?:never|not|no)\s{1,3}(?:\w{1,12}\s{1,3})?)\b(?:in|into|inside|within)\s{1,3}(?:the\s{1,3}|your\s{1,3}|each\s{1,3}|every\s{1,3})?(?:message|text|body|prompt|chat|request\s{1,3}text)s?\b|(?<![\p{L}])(?:in\s{1,3}der\s{1,3}Nachricht|im\s{1,3}(?:Text|Nachrichtentext)|dans\s{1,3}(?:le|chaque)\s{1,3}(?:message|texte)|en\s{1,3}(?:el|cada)\s{1,3}(?:mensaje|texto)|n[ao]\s{1,3}(?:mensagem|texto)|nel\s{1,3}(?:messaggio|testo))(?![\p{L}])/iu;
const SCHEME = /\b(?:authorization\s{1,3}header|bearer|oauth\w{0,3}|openid|sso|security\s{1,3}schemes?|api[\s-]key\s{1,3}header)\b/i;

export interface CardFinding {
  path: JsonPath;
  start: number;
  end: number;
  detail: string;
}

const CARD_TEXT = (path: JsonPath): boolean =>
  path[0] === "result" && (path[1] === "description" || (path[1] === "skills" && (path[3] === "description" || path[3] === "examples")));

/** A demand in the sentence that no negation just before it takes back ("it never asks you to send"). */
function demanded(s: string): boolean {
  DEMAND.lastIndex = 0;
  for (let m: RegExpExecArray | null, n = 0; (m = DEMAND.exec(s)) !== null && n < 16; n++) {
    if (m[0].length === 0) DEMAND.lastIndex++;
    if (!NEGATED.test(s.slice(Math.max(0, m.index - 40), m.index))) return true;
  }
  return false;
}

/**
 * The sentence of one string of an agent card that teaches its callers to send a person's login secret, as offsets
 * into the string (its first character to its closing mark), or null. The finding cuts that sentence, not the string:
 * "Books flights." before it stays.
 */
export function secretSentence(text: string): { start: number; end: number } | null {
  const t = text.length > 4000 ? text.slice(0, 4000) : text;
  const stops = /[.!?\n。！？؟]+/gu;
  for (let from = 0; from <= t.length; ) {
    const stop = stops.exec(t);
    const to = stop === null ? t.length : stop.index;
    const next = stop === null ? t.length + 1 : stop.index + stop[0].length;
    const s = t.slice(from, to);
    const m = SECRET.exec(s);
    if (m) {
      const before = s.slice(Math.max(0, m.index - 80), m.index);
      const after = s.slice(m.index + m[0].length, m.index + m[0].length + 70);
      if (!NEGATED.test(before) && !OWN_FLOW.test(s) && (!SCHEME.test(s) || IN_MESSAGE.test(s)) && (VALUE.test(after) || HANDED_BEFORE.test(before) || demanded(s))) {
        const lead = s.length - s.trimStart().length;
        return { start: from + lead, end: stop === null ? t.length : stop.index + (t[stop.index] === "\n" ? 0 : 1) };
      }
    }
    from = next;
  }
  return null;
}

/** Whether one string of an agent card teaches its callers to send a person's login secret. */
export function teachesSecret(text: string): boolean {
  return secretSentence(text) !== null;
}

/** The strings of an agent card (its description, its skills' descriptions and examples) that teach a secret sent. */
export function cardSecretFindings(sites: readonly StringSite[], card: boolean): CardFinding[] {
  if (!card) return [];
  const out: CardFinding[] = [];
  for (const site of sites) {
    if (out.length >= 8) break;
    if (!CARD_TEXT(site.path) || site.value.length < 8) continue;
    const at = secretSentence(site.value);
    if (at) out.push({ path: site.path, start: at.start, end: at.end, detail: "an agent card teaches its callers to send a person's password, codes or key" });
  }
  return out;
}
