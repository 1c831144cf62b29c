/*
 * (Twenty-second round) A request to another agent in more of the world's languages (requests.ts, `fileRequests`).
 * What makes a line a request to open a file is not its language: it asks the agent to read, send, copy, show or open
 * something, or it asks for a thing's *contents*. The verbs' imperatives (Croatian, Serbian and Bosnian, Slovenian,
 * Hungarian, Tagalog, Swahili, Finnish, Estonian, Romanian, Czech and Slovak, Greek, Catalan, Georgian, the
 * Scandinavian languages, Lithuanian, Latvian, Bulgarian, Amharic) and the word "contents" in the same languages and the
 * ones requests.ts already reads are matched as whole words; the path named on the line is then judged as opened by the
 * path judgement (a project's own file passes). A line that asks why or how, or asks to explain, in those languages,
 * stays a question.
 */

/** A letter on either side ends a word: `\b` does not see the letters outside ASCII. */
const word = (alternatives: string): RegExp => new RegExp(`(?<![\\p{L}\\p{M}])(?:${alternatives})(?![\\p{L}\\p{M}])`, "iu");

/** Imperatives of reading, sending, copying, showing, opening and forwarding. */
const VERBS = word(
  [
    // Croatian, Serbian, Bosnian (Latin and Cyrillic), Slovenian
    "pročitaj|procitaj|pošalji|posalji|kopiraj|otvori|učitaj|ucitaj|prikaži|prikazi|proslijedi|prosledi|dostavi|preberi|pošlji|posreduj|odpri|прочитај|пошаљи|отвори|прикажи",
    // Hungarian, Tagalog, Swahili
    "olvasd|olvassa|küldd|küldje|másold|nyisd|mutasd|töltsd|továbbítsd|basahin|pakibasa|ipadala|padalhan|ipakita|kopyahin|buksan|ipasa|soma|nisomee|tuma|nitumie|nakili|pakia|onyesha|fungua",
    // Finnish, Estonian, Romanian, Czech, Slovak
    "lue|lähetä|kopioi|avaa|näytä|loe|saada|näita|ava|citește|citeste|trimite|trimiteți|copiază|copiaza|deschide|arată|arata|přečti|prečítaj|pošli|zkopíruj|skopíruj|otevři|otvor|ukaž|ukáž",
    // Greek, Catalan, Georgian
    "διάβασε|στείλε|στείλτε|αντίγραψε|άνοιξε|δείξε|llegeix|obre|envieu|mostreu|წაიკითხე|გამომიგზავნე|გაგზავნე|მაჩვენე|გახსენი",
    // Swedish, Danish, Norwegian, Lithuanian, Latvian, Bulgarian, Amharic
    "läs|skicka|kopiera|öppna|visa|læs|åbn|åpne|perskaityk|atsiųsk|nusiųsk|parodyk|izlasi|nosūti|parādi|прочети|изпрати|копирай|отвори|አንብብ|ላክ",
  ].join("|"),
);

/** "Contents" (of a file), in those languages and the ones the verbs of requests.ts cover. */
const CONTENTS = word(
  [
    "contents|inhalt|inhalts|contenido|contenu|contenuto|conteúdo|inhoud|zawartość|zawartosc|içeriğini|içeriği|isinya|nội dung|содержимое|вміст|съдържанието",
    "sadržaj|sadrzaj|sadržaja|садржај|vsebino|vsebina|tartalmát|tartalmat|tartalma|laman|nilalaman|yaliyomo|maudhui|sisältö|sisällön|sisu|conținutul|continutul|obsah|περιεχόμενο|contingut|შიგთავსი|შინაარსი|innehållet|indholdet|innholdet|turinį|saturu",
  ].join("|"),
);

/** Asking why or how, or to explain, in those languages: a question about a file, not a request to open it. */
const QUESTION = word(
  "zašto|zasto|zakaj|зашто|miért|hogyan|bakit|paano|kwa nini|kwanini|vipi|miksi|miten|miks|kuidas|de ce|proč|prečo|γιατί|πώς|per què|perquè|რატომ|როგორ|varför|hvorfor|hvordan|kodėl|kāpēc|защо|objasni|pojasni|razloži|magyarázd|ipaliwanag|eleza|selitä|selgita|explică|explica|vysvětli|vysvetli|εξήγησε|ახსენი|förklara|forklar|paaiškink|paskaidro|обясни",
);

/** Whether a line asks, in one of those languages, for a file to be opened or its contents returned. */
export function asksInMoreLanguages(line: string): boolean {
  // Every word matched is a letter run; a line of ASCII letters alone needs only the Latin alternatives, the same regex.
  return (VERBS.test(line) || CONTENTS.test(line)) && !QUESTION.test(line);
}
