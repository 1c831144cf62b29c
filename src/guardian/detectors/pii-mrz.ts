import type { StringSite } from "./scan.js";

/*
 * Travel documents' machine-readable zones by their layout (tenth round). pii-bulk.ts reads a zone's data line when
 * its check digits hold; a zone copied by hand, mistyped or made up keeps its layout even when a check digit does
 * not: a name line (`P<GBRHALE<<MARGARET<<<…`, the document's kind, its issuing state and the holder's names padded
 * with `<` to the line's fixed length) followed by the data line (document number, nationality, a birth date, a sex,
 * an expiry date). That pair is a document holder's identity whatever its digits, as a card number under a card label
 * counts with a bad checksum. ICAO 9303's three sizes: TD3 (passports, 2 × 44), TD2 (2 × 36), TD1 (identity cards,
 * 3 × 30, the names last). Not counted: ICAO's specimens (issuing state `UTO`, Utopia) and zones of placeholder names
 * (SPECIMEN, MUSTERMANN, TEST…), documentation's and fixtures'. Cost: one split of the string on white space (the
 * caller runs it only on strings with `<<` and twelve digits), fixed-length tokens tested by anchored patterns.
 */

const NAME_TD3 = /^[PV][A-Z<][A-Z<]{3}[A-Z<]{39}$/;
const DATA_TD3 = /^[A-Z0-9<]{9}[0-9<][A-Z<]{3}(\d{6})[0-9<][MFX<](\d{6})[0-9<][A-Z0-9<]{14}[0-9<]{2}$/;
const NAME_TD2 = /^[ACIV][A-Z<][A-Z<]{3}[A-Z<]{31}$/;
const DATA_TD2 = /^[A-Z0-9<]{9}[0-9<][A-Z<]{3}(\d{6})[0-9<][MFX<](\d{6})[0-9<][A-Z0-9<]{7}[0-9<]$/;
const HEAD_TD1 = /^[ACI][A-Z<][A-Z<]{3}[A-Z0-9<]{25}$/;
const DATA_TD1 = /^(\d{6})[0-9<][MFX<](\d{6})[0-9<][A-Z<]{3}[A-Z0-9<]{11}[0-9<]$/;
const NAME_TD1 = /^[A-Z<]{30}$/;

const SPECIMEN = /UTO|SPECIMEN|MUSTER|TEST<|<TEST|SAMPLE|EXAMPLE|DUMMY|ERIKSSON<<ANNA/;

function dateOk(yymmdd: string): boolean {
  const m = Number(yymmdd.slice(2, 4));
  const d = Number(yymmdd.slice(4, 6));
  return m >= 1 && m <= 12 && d >= 1 && d <= 31;
}

/** A name line's names: `<<` between surname and given names, letters in both. */
function names(line: string, from: number): boolean {
  const body = line.slice(from);
  const at = body.indexOf("<<");
  return at >= 2 && /[A-Z]{2}/.test(body.slice(at + 2));
}

/**
 * Machine-readable zones by layout (see above): each found is noted as a strong identity with its holder's birth
 * date. Returns whether any was found.
 */
export function mrzPairs(site: StringSite, note: (h: { site: StringSite; start: number; end: number; key: string; strong: boolean }) => void): boolean {
  const v = site.value;
  const tokens: { text: string; start: number }[] = [];
  const re = /\S{1,64}/g;
  for (let m: RegExpExecArray | null; (m = re.exec(v)) !== null && tokens.length < 4096; ) tokens.push({ text: m[0], start: m.index });
  let any = false;
  for (let i = 0; i + 1 < tokens.length; i++) {
    const a = (tokens[i] as { text: string; start: number });
    const b = (tokens[i + 1] as { text: string; start: number });
    let data: RegExpExecArray | null = null;
    let name = "";
    let end = b.start + b.text.length;
    if (a.text.length === 44 && b.text.length === 44 && NAME_TD3.test(a.text) && names(a.text, 5)) {
      data = DATA_TD3.exec(b.text);
      name = a.text;
    } else if (a.text.length === 36 && b.text.length === 36 && NAME_TD2.test(a.text) && names(a.text, 5)) {
      data = DATA_TD2.exec(b.text);
      name = a.text;
    } else if (a.text.length === 30 && b.text.length === 30 && i + 2 < tokens.length && HEAD_TD1.test(a.text)) {
      const c = tokens[i + 2] as { text: string; start: number };
      if (c.text.length === 30 && NAME_TD1.test(c.text) && names(c.text, 0)) {
        data = DATA_TD1.exec(b.text);
        name = c.text;
        end = c.start + c.text.length;
      }
    }
    if (data === null || !dateOk(data[1] as string) || !dateOk(data[2] as string)) continue;
    if (SPECIMEN.test(a.text) || SPECIMEN.test(name)) continue;
    note({ site, start: a.start, end, key: b.text, strong: true });
    any = true;
    i++;
  }
  return any;
}
