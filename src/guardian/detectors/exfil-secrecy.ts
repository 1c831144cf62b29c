/*
 * (Twenty-fourth round, "exf24") A writer asking the reader to keep what follows to themselves, in the words people
 * use rather than a document's stamp (exfil-sinks.ts mailedSecrets; docs/detection.md, "exf24: secrecy asked of a
 * personal mailbox"). "Confidential" and "do not share" are marks exfil-words.ts reads; "keep it between us", "tell
 * no one", "unter uns", "entre nous", "kimseyle paylaşma", "między nami" say the same of a message whose content the
 * sender knows should not be where it is going. Sent to a personal mailbox (gmail, gmx, yandex…), it is the company's
 * confidential material leaving through the side door.
 *
 * What passes: the same words to a company address (a colleague's surprise party, a client's or a vendor's address:
 * exfil-sinks.ts decides, only a personal mailbox counts); mail to a personal mailbox that asks nothing of the kind (a
 * customer's own booking); a disclaimer about the message's handling (exfil-words.ts reads those); "share it with
 * everyone", "between 9 and 5", "the distance between us and the depot". A personal mailbox asked to keep a surprise
 * still counts: the mailbox is the guard, and a customer's own mail rarely asks for secrecy.
 *
 * Bounded: one alternation of fixed phrases with `\s{1,3}` between words, over 64 KB at most.
 */

const SECRECY = new RegExp(
  "(?<![\\p{L}\\p{N}])(?:" +
    [
      // English
      "(?:keep|leave)\\s{1,3}(?:it|this|that|these|them)\\s{1,3}between\\s{1,3}(?:us|ourselves|you\\s{1,3}and\\s{1,3}me)",
      "between\\s{1,3}you\\s{1,3}and\\s{1,3}me",
      "(?:don'?t|do\\s{1,3}not|never)\\s{1,3}(?:tell|show)\\s{1,3}(?:anyone|anybody|a\\s{1,3}soul)",
      "(?:tell|show)\\s{1,3}no\\s{1,3}one",
      "(?:keep|kept)\\s{1,3}(?:it|this)\\s{1,3}(?:quiet|off\\s{1,3}the\\s{1,3}record|to\\s{1,3}yourself|secret)",
      "off\\s{1,3}the\\s{1,3}books",
      // German, Dutch
      "(?:bleibt\\s{1,3})?unter\\s{1,3}uns",
      "niemandem\\s{1,3}(?:zeigen|sagen|weitergeben)",
      "onder\\s{1,3}ons",
      // French, Spanish, Portuguese, Italian
      "entre\\s{1,3}nous",
      "entre\\s{1,3}nosotros",
      "(?:no|nunca)\\s{1,3}(?:lo|se\\s{1,3}lo)\\s{1,3}(?:compartas|digas|ense[ñn]es)",
      "entre\\s{1,3}n[óo]s",
      "n[ãa]o\\s{1,3}(?:compartilhe|partilhe|conte)",
      "tra\\s{1,3}(?:noi|di\\s{1,3}noi)",
      "non\\s{1,3}(?:dirlo|condividerlo|mostrarlo)",
      // Polish, Czech, Turkish, Hungarian
      "mi[ęe]dzy\\s{1,3}nami",
      "nikomu\\s{1,3}(?:nie\\s{1,3}(?:m[óo]w|pokazuj|przekazuj)|to\\s{1,3}neukazuj|to\\s{1,3}ne[řr]íkej)",
      "mezi\\s{1,3}n[áa]mi",
      "kimseyle\\s{1,3}payla[şs]ma",
      "kimseye\\s{1,3}(?:s[öo]yleme|g[öo]sterme)",
      "aram[ıi]zda\\s{1,3}kals[ıi]n",
      "maradjon\\s{1,3}k[öo]z[öo]tt[üu]nk",
      "senkinek\\s{1,3}ne\\s{1,3}(?:mondd|mutasd)",
      // Russian, Ukrainian
      "между\\s{1,3}нами",
      "нікому\\s{1,3}не\\s{1,3}(?:показуй|кажи)",
      "никому\\s{1,3}не\\s{1,3}(?:показывай|говори)",
      "між\\s{1,3}нами",
    ].join("|") +
    ")(?![\\p{L}\\p{N}\\p{M}])",
  "iu",
);

/** Whether a text asks its reader to keep it to themselves (at most 64 KB looked at). */
export function secrecyAsked(text: string): boolean {
  return SECRECY.test(text.length > 65536 ? text.slice(0, 65536) : text);
}
