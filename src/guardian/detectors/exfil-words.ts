/*
 * (Seventeenth round, "exf17") What a text says of itself, in the languages people write it in: that it is not for
 * outsiders (a confidentiality or embargo mark), or that a value in it is a password. Earlier rounds read both in
 * English only, so a Chinese "密码 …", an Arabic "سري" or a German "VERTRAULICH" went through where the English
 * words were found. A mark counts when it labels the content; an e-mail disclaimer ("this message is confidential and
 * intended only for the addressee") describes the message's handling and is set aside.
 *
 * Every pattern is bounded (no nested quantifiers); non-Latin marks are bounded by letter look-arounds, since `\b`
 * knows only ASCII words.
 */

/** Marks in Latin scripts, as whole words (ASCII `\b` is not enough for accented letters: look-arounds on \p{L}). */
const LATIN_MARK = new RegExp(
  "(?<![\\p{L}\\p{N}])(?:" +
    [
      // English (the relays' list, plus embargoes and undisclosed results)
      "confidential",
      "internal[-_ ]only",
      "for\\s{1,3}internal\\s{1,3}use\\s{1,3}only",
      "do\\s{1,3}not\\s{1,3}(?:share|distribute|forward|disclose)",
      "not\\s{1,3}for\\s{1,3}(?:distribution|publication|release)",
      "strictly\\s{1,3}private",
      "under\\s{1,3}(?:nda|embargo)",
      "embargoed",
      "embargo\\s{1,3}(?:until|till|to)",
      "not\\s{1,3}yet\\s{1,3}(?:disclosed|public)",
      "undisclosed",
      "price[-\\s]sensitive",
      "insider?\\s{1,3}information",
      // (Twenty-fifth round, exf25a) A court's seal, and "do not forward" in the languages the other marks are read in.
      "(?:filed\\s{1,3})?under\\s{1,3}seal",
      "nicht\\s{1,3}weiterleiten",
      "ne\\s{1,3}pas\\s{1,3}transférer",
      "no\\s{1,3}reenviar",
      "nie\\s{1,3}przekazywać(?:\\s{1,3}dalej)?",
      "не\\s{1,3}пересилати",
      "не\\s{1,3}пересылать",
      // German, Dutch, Scandinavian
      "vertraulich",
      "streng\\s{1,3}geheim",
      "nicht\\s{1,3}weitergeben",
      "sperrfrist",
      "vertrouwelijk",
      "konfidentiell?",
      "fortrolig",
      // French, Spanish, Portuguese, Italian
      "confidentiel(?:le)?",
      "ne\\s{1,3}pas\\s{1,3}diffuser",
      "diffusion\\s{1,3}restreinte",
      "sous\\s{1,3}embargo",
      "confidencial",
      "no\\s{1,3}divulgar",
      "bajo\\s{1,3}embargo",
      "sigilos[oa]",
      "não\\s{1,3}divulgar",
      "riservat[oa]",
      "confidenziale",
      "non\\s{1,3}divulgare",
      // Polish, Czech, Turkish, Vietnamese, Indonesian
      "poufn[eya]",
      "ściśle\\s{1,3}tajne",
      "důvěrné",
      "hizmete\\s{1,3}özel",
      "kişiye\\s{1,3}özel",
      "çok\\s{1,3}gizli",
      "tuyệt\\s{1,3}mật",
      "tối\\s{1,3}mật",
      "lưu\\s{1,3}hành\\s{1,3}nội\\s{1,3}bộ",
      "sangat\\s{1,3}rahasia",
      // Cyrillic, Greek, Hebrew, Devanagari: words with letters on both sides bounded the same way
      "конфиденциально",
      "секретно",
      "для\\s{1,3}служебного\\s{1,3}пользования",
      "конфіденційно",
      "εμπιστευτικό",
      "סודי",
      "गोपनीय",
      // Arabic: "secret", "top secret", "for internal use"
      "سري",
      "سرّي",
      "سري\\s{1,3}للغاية",
      "للاستخدام\\s{1,3}الداخلي",
    ].join("|") +
    ")(?![\\p{L}\\p{N}\\p{M}])",
  "iu",
);
/** Marks in scripts written without blanks: not a part of a longer word for the property ("機密性", confidentiality). */
const CJK_MARK = /(?:机密|機密|绝密|絕密|保密|内部资料|內部資料|请勿外传|請勿外傳|社外秘|部外秘|極秘|取扱注意|대외비|기밀|극비)(?!性|성)/u;
/** A sentence of a disclaimer: about the message and who it is meant for, not about its content. */
const DISCLAIMER = /\b(?:intended\s{1,3}(?:solely\s{1,3}|only\s{1,3})?for|addressee|received\s{1,3}(?:this|it)\s{1,3}in\s{1,3}error|if\s{1,3}you\s{1,3}are\s{1,3}not\s{1,3}the|privileged\s{1,3}and\s{1,3}confidential\s{1,3}information\s{1,3}intended)\b|destinataire|empfänger|destinatario/i;

/** Whether a text is marked as not for outsiders (at most 64 KB looked at), its disclaimers set aside. */
export function markedText(text: string): boolean {
  const t = text.length > 65536 ? text.slice(0, 65536) : text;
  if (!LATIN_MARK.test(t) && !CJK_MARK.test(t)) return false;
  if (!DISCLAIMER.test(t)) return true;
  // A disclaimer says "confidential" of every message: only a mark outside its sentences counts.
  for (const sentence of t.split(/[.!?。\n]/, 512)) if (!DISCLAIMER.test(sentence) && (LATIN_MARK.test(sentence) || CJK_MARK.test(sentence))) return true;
  return false;
}

/** "Password" in the languages people write it in (the English words are the relays' and the messages' patterns). */
const PASSWORD_WORD =
  /(?<![\p{L}\p{N}])(?:passwort|kennwort|wachtwoord|mot\s{1,3}de\s{1,3}passe|contraseña|contrasena|senha|parola|parolă|hasło|haslo|heslo|şifre|sifre|lösenord|losenord|passord|adgangskode|salasana|jelszó|пароль|kata\s{1,3}sandi|mật\s{1,3}khẩu|סיסמה|पासवर्ड|كلمة\s{1,3}(?:المرور|السر))(?![\p{L}\p{N}])|(?:密码|密碼)(?!学|學|器)|口令|パスワード|暗証番号|비밀번호|암호(?!화|학)/u;
/**
 * After the word: a separator, at most one linking word ("is", "est", "ist", "é", "是", "は"…), at most two short words
 * of four letters or fewer ("от VPN", "für WLAN"), then the value.
 */
const AFTER_WORD = /^[\s:：=]{0,3}(?:(?:is|est|ist|es|é|è|jest|je|là|adalah|هي|是|为|為|は|는|은)[\s:：]{0,2})?(?:[\p{L}\p{N}-]{1,4}\s{1,2}){0,2}([^\s"'&,，。、;；)）]{6,40})/iu;

/**
 * A password stated in words in any of these languages: the word, then a value of six characters or more with a letter
 * and a digit or a symbol ("密码 ht3@2026", "senha: Praia#2027"). "Passwort vergessen?", "senha de 8 caracteres", a
 * reset link pass.
 */
export function passwordInWords(text: string): boolean {
  return passwordSpansInWords(text, 1).length > 0;
}

/**
 * (Twentieth round, "sec20") The values of passwords stated in words in these languages, as spans of `text` (at most
 * `max`): what secrets-labelled.ts cuts from a message sent to people or another agent.
 */
export function passwordSpansInWords(text: string, max = 8): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const t = text.length > 65536 ? text.slice(0, 65536) : text;
  const re = new RegExp(PASSWORD_WORD.source, "gu");
  for (let n = 0; re.exec(t) !== null && n < 16 && out.length < max; n++) {
    const m = AFTER_WORD.exec(t.slice(re.lastIndex, re.lastIndex + 64));
    // (A sentence's closing mark is not the value's: "Passwort vergessen?")
    const v = m?.[1]?.replace(/[?!.:]+$/, "");
    if (m === null || v === undefined || v.length < 6 || /:\/\/|^[$%{<*]|^x{4,}$/i.test(v)) continue;
    if (!/[A-Za-z]/.test(v) || !/[0-9!@#$%^&*?~]/.test(v)) continue;
    const start = re.lastIndex + m[0].length - (m[1] as string).length;
    out.push({ start, end: start + v.length });
  }
  return out;
}
