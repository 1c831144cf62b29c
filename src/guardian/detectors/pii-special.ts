import { literalId, literalsOf } from "./literals.js";
import { firstPerson } from "./pii-checks.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * Special-category records in bulk (`pii_bulk.special`, tenth round): people's health, disability or disciplinary
 * data as a list, with no identifier at all. The people's-records check (pii-people.ts) wants a code beside a name;
 * a clinic's patient list, a class list with pupils' special needs or allergies, or staff's warnings and sick leave
 * carry names and the condition only — and the condition is what makes them harmful to send. What such a list shares
 * whatever its language or wrapping:
 *
 *   - records: the lines of a text, the `;`-separated entries of one line, the items of a JSON array (in the message
 *     or in a JSON string it carries), the rows of a table with a header;
 *   - each record a **person** — a full name (two capitalised words or more, or a short run of a script without
 *     case), not a clinician's (`Dr`, `Prof.`, `Nurse` before it) nor a company's — and a **special-category
 *     field**: a column or key named for it (`condition`, `diagnosis`, `allergy`, `medication`, `sen`, `disability`,
 *     `disciplinary`…), or a condition, treatment or disciplinary term in the record's own text (a short vocabulary
 *     of many languages: diabetes, depression, HIV, epilepsy, ADHD, pregnancy, a dose in mg, sick leave, a final
 *     written warning…), or a secret the person read out (`PIN 4471`, a passcode, a memorable word);
 *   - two such records or more with different names in one list.
 *
 * Benign neighbours it leaves: one person's own note (one record is no list); names written as initials without a
 * birth date (`Ollie C.`: a teacher's note to the school's own SENCo; `R. Diaz (1984-02-11)` counts); clinicians' rotas; a charity's donors (a condition named in a
 * fund's or walk's name); a condition as the subject of work (a health app's release notes, a ticket "fix the diabetes
 * form", a study, a course) or a product's title-cased name (`Glucose Tracker`); allergies and diets (a lunch order for colleagues; a
 * pupils' register with allergies is caught by its birth dates, as pii-bulk.ts's records table); rooms' and doors' PINs; aggregates without names; a condition named inside a person's name (`Alois Alzheimer`);
 * long prose (a record is 240 characters at most). Like the rest of `pii_bulk`, it is refused only on its way off the
 * machine (the rule's `when`). Cost: the first 64 KB of a string, 256 records in all, bounded patterns only.
 */

const MAX_TEXT = 64 * 1024;
const MAX_RECORDS = 256;
const MAX_RECORD = 240;

/** A full name: two to four capitalised words of two letters or more, or a short run of a script without case. */
const NAME = /(?<![\p{L}\p{N}.])\p{Lu}[\p{Ll}'’-]{1,20}(?:[ \t]{1,3}(?:(?:de|da|van|von|der|den|al|el|la|le|di|bin|ibn)[ \t]{1,3})?\p{Lu}[\p{Ll}'’-]{1,20}){1,3}(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]{2,4}(?:[ \u3000][\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]{1,4})?(?![\p{L}\p{N}])/u;
/** (Eighteenth round) A name as a booking or a travel document writes it: surname, a slash, given name, in capitals. */
const SLASH_NAME = /(?<![\p{L}\p{N}/])\p{Lu}{2,20}\/\p{Lu}{2,20}(?![\p{L}\p{N}/])/u;
/** Both parts with a vowel and nine letters in all: a name, not a pair of acronyms (`HTTP/HTTPS`, `JSON/YAML`). */
function slashName(n: string): boolean {
  const [a, b] = n.split("/") as [string, string];
  const vowel = /[AEIOUY\u00c0-\u024f\u0370-\u04ff]/u;
  return a.length + b.length >= 9 && vowel.test(a) && vowel.test(b);
}
/** A name by its initial (`R. Diaz`, `Sofia R.`): a person only beside their birth date (see personOf). */
/**
 * (Thirteenth round) A surname after an initial (`J. Wendt`): how staff lists, HR notes and background checks name
 * people. A person beside a special-category term or key (a first name with an initial, `Ollie C.`, still needs a
 * birth date or an address).
 */
const INITIAL_SURNAME = /(?<![\p{L}\p{N}.])\p{Lu}\.[ \t]{0,2}\p{Lu}[\p{Ll}'’-]{1,20}(?:[ \t]\p{Lu}[\p{Ll}'’-]{1,20})?(?![\p{L}.])/u;
const INITIAL_NAME = /(?<![\p{L}\p{N}.])(?:\p{Lu}\.[ \t]{0,2}\p{Lu}[\p{Ll}'’-]{1,20}|\p{Lu}[\p{Ll}'’-]{1,20}[ \t]\p{Lu}\.)(?![\p{L}])/u;
/** (Eleventh round) A home address: a house number and a street (`14 Mill Lane`, `Lindenstr. 4`): initials beside it are someone found. */
const STREET = /(?<![\p{L}\p{N}])\d{1,4}[a-z]?[ \t]{1,2}(?:\p{Lu}[\p{Ll}'’-]{1,20}[ \t]{1,2}){1,3}(?:Lane|Road|Rd|Street|St|Avenue|Ave|Row|Close|Way|Drive|Court|Place|Gardens|Terrace|Crescent|Grove|Hill)\b|(?<![\p{L}])\p{Lu}[\p{Ll}]{2,20}(?:stra(?:ss|ß)e|str\.|weg|gasse|allee|platz)[ \t]{1,2}\d{1,4}(?![\d])/u;
const BIRTH_DATE = /(?<![\d])(?:19\d{2}|20[0-2]\d)[-./](?:0?[1-9]|1[0-2])[-./](?:0?[1-9]|[12]\d|3[01])(?![\d])|(?<![\d])(?:0?[1-9]|[12]\d|3[01])[-./](?:0?[1-9]|1[0-2])[-./](?:19\d{2}|20[0-2]\d)(?![\d])/;

/**
 * (exf31) A title of address before a surname, an initial between them or not (`Mrs J Ellis`, `Mr K Owusu`, `Ms Lane`,
 * `Herr Braun`, `Sra. Díaz`, `Mme Roux`): a person, written as a housing register or a care list writes residents.
 * Clinicians' titles are not among them (CLINICIAN: who treats, not who is treated).
 */
const TITLED_NAME = /(?<![\p{L}])(?:Mr|Mrs|Ms|Miss|Mx|Mme|Mlle|Herr|Frau|Sr|Sra|Srta|Dhr|Mevr|Pan|Pani)\.?[ \t]{1,2}(?:\p{Lu}\.?[ \t]{1,2}){0,2}\p{Lu}[\p{Ll}'’-]{1,24}(?![\p{L}])/u;

/** Titles of clinicians and staff before a name: the name is who treats, not who is treated. */
const CLINICIAN = /(?:^|[^\p{L}])(?:dr|dr\.|prof|prof\.|nurse|doctor|dra|dra\.|pr\.|drs?\.)\s{0,2}$/iu;
/** A name whose first word is a clinician's title (`Dr Anna Berg`, `Nurse Ella Ward`: NAME reads the title as a word). */
const CLINICIAN_NAME = /^(?:Dr|Dra|Doctor|Prof|Professor|Nurse|Sister|Matron|Midwife|Dentist|Therapist)\s/u;
/** A company's legal form, or words that make a "name" a thing's (a fund's, a walk's, a clinic's). */
const NOT_PERSON = /\b(?:ltd|gmbh|inc|llc|plc|ag|sa|bv|ab|oy|room|door|gate|locker|building|floor|site|office|wifi|guest|foundation|society|association|trust|clinic|hospital|centre|center|research|charity|awareness|fund|walk|run|ward|unit|team|department|tracker|journal|app|log|logbook|screening|monitor|assistant|plan|program|programme|service|module|form|report|tool|kit|test|check|coach|guide|hub|portal|care|support|pro|plus|lite|awareness|week|day|month)\b/i;
/** A condition named as a product's or a task's subject (a health app's release notes, a team's tickets): work, not a person's health. */
const WORK = /\b(?:fix(?:es|ed)?|bug|feature|release|screen|page|form|questionnaire|module|ticket|pr|pull request|review(?:ed)? the|deploy\w*|implement\w*|migrat\w*|refactor\w*|design(?:s|ed)?|api|endpoint|dashboard|app|copy|ui|ux|sprint|story|epic|backlog|tracker|logbook|journal|template|campaign|webinar|workshop|course|training|talk|paper|study|trial|article|chapter)\b/i;
/** (Eleventh round) An organisation named for a condition (`Diabetes UK`, `Parkinson's Foundation`): a speaker's or a donor's affiliation. */
const ORGANISATION = /(?<![\p{L}])(?:UK|USA|Institute|University|Alliance|Network|Foundation|Society|Association|Charity|Council)(?![\p{L}])/u;
const DONOR = /\b(?:donat\w*|fundrais\w*|sponsor\w*|charity|foundation|awareness|research|society|association)\b/i;

/*
 * Conditions, treatments and disciplinary terms in a record's text, many languages: read word by word from the
 * lowercased record (a set lookup per word, a stem's prefix, a phrase of two or three words), since one pattern of
 * two hundred alternatives costs a hundred times more on every line of every file an agent writes.
 */
const TERM_WORDS = new Set(
  (
    "diabetes diabetic asthma asthmatic copd depression depressed anxiety bipolar psychosis ptsd adhd autism autistic asperger aspergers " +
    "dyspraxia seizure seizures dementia alzheimer's alzheimers parkinson's parkinsons cancer tumour tumor leukaemia leukemia lymphoma " +
    "chemo chemotherapy radiotherapy aids hepatitis tuberculosis stroke arrhythmia hypertension dialysis miscarriage abortion ivf " +
    "anorexia bulimia overdose addiction methadone rehab opioid opioids sertraline fluoxetine citalopram lithium antidepressant " +
    "antidepressants disabled wheelchair ehcp burnout burn-out diagnosis diagnosed " +
    "disciplinary misconduct harassment grievance dismissal dismissed convicted conviction " +
    "depresión dépression depressione depressão depressie diabète diabete diabetas cukrovka astma asma asthme epilessia flogaveiki " +
    "sykursýki schwangerschaft embarazada embarazo enceinte grossesse incinta gravidanza grávida zwanger krankgeschrieben arbeitsunfähig " +
    "krankmeldung beschäftigungsverbot malattia abmahnung avertissement amonestación vih sida cáncer tumeur behinderung discapacidad " +
    "depresija depresja diagnozė diagnoza nagana " +
    // (Thirteenth round) criminal-record terms (a background check's outcomes) and conditions of other languages.
    "dui dwi owi felony felonies misdemeanor misdemeanour misdemeanors misdemeanours convictions hernia ziekmelding ziekteverlof " +
    // (Fourteenth round) a fitness-to-work file's conditions (hearing, sleep, sight, insulin) and a drug test's substances.
    "apnea apnoea insulin tinnitus monocular deafness thc cannabis cocaine amphetamine amphetamines methamphetamine opiates oxycodone fentanyl heroin benzodiazepine benzodiazepines " +
    // (Seventeenth round) genetic data, a special category of its own (GDPR art. 9): a test's result, a genotype, a carrier.
    "pathogenic genotype genotyped genotypes brca apoe trisomy haemophilia hemophilia huntington's huntingtons"
  ).split(" "),
);
const TERM_STEMS = ["zwanger", "schizophreni", "dyslexi", "epilep", "pregnan", "infertil", "suicid", "alcoholi", "disabilit", "cukrzyc", "depresj", "nėštum", "schwanger", "nowotw", "niepełnosprawn", "handicap", "invalidit", "krebserkrank", "dyscyplinarn"];
const TERM_PHRASES = new Set(
  [
    "panic attack", "panic attacks", "multiple sclerosis", "heart attack", "heart failure", "kidney failure", "eating disorder", "self harm",
    "substance misuse", "insulin dependent", "on insulin", "sen support", "send support", "sick leave", "sickness absence", "signed off sick",
    "mental health", "final warning", "written warning", "final written warning", "gross misconduct", "criminal record", "on probation",
    "performance improvement", "zwolnienie lekarskie", "baja médica", "arrêt maladie", "diabetes mellitus", "hiv positive",
    // (Eleventh round) a student's disciplinary record.
    "academic probation", "disciplinary probation", "permanent exclusion",
    // (Thirteenth round) a background check's criminal-record findings.
    "suspended sentence", "prior conviction", "prior convictions", "arrest record", "sex offender", "drink driving", "drunk driving", "driving ban",
    // (Fourteenth round) an occupational-health or a drug-test result.
    "hearing loss", "vision loss", "sleep apnea", "drug test", "drug screen", "tox screen", "tested positive",
    // (Seventeenth round) genetic data.
    "cystic fibrosis", "sickle cell", "carrier status", "genetic test", "genetic testing", "genetic risk", "gene mutation",
  ],
);
/**
 * (Twelfth round) Injuries and a family court's orders (who may not see a child, who must stay away from whom):
 * special data too, but a sports club's injury list and a court's daily list name them in public, so they count only
 * in a record that also holds the person's birth date or home address (a claims list, a class list's custody notes).
 */
const COURT_ORDERS = ["court order", "restraining order", "protection order", "non-molestation order", "custody order", "child arrangements order"];
const INJURY_WORDS = new Set(
  "whiplash concussion fracture fractured fractures sprain sprained dislocation dislocated laceration lacerations amputation amputated herniated herniation protrusion paralysed paralyzed paraplegic tetraplegic".split(" "),
);

function hasInjury(text: string): boolean {
  const t = text.length > MAX_RECORD * 4 ? text.slice(0, MAX_RECORD * 4).toLowerCase() : text.toLowerCase();
  WORD.lastIndex = 0;
  for (let m: RegExpExecArray | null, n = 0; (m = WORD.exec(t)) !== null && n < 256; n++) if (INJURY_WORDS.has(m[0])) return true;
  return COURT_ORDERS.some((o) => t.includes(o));
}
const WORD = /[a-z\u00c0-\u024f'’-]+/g;
/** A dose (`100mg`) or an ICD-10 code (`F32.1`, `E11.9`): digits, so only records with one are tested. */
const DOSE_OR_CODE = /\b\d{1,4} ?mg\b|\b[A-TV-Z]\d{2}\.\d{1,2}\b|\b\d{1,3} ?dB (?:HL|loss)\b/;

function hasTerm(text: string): boolean {
  const t = text.length > MAX_RECORD * 4 ? text.slice(0, MAX_RECORD * 4).toLowerCase() : text.toLowerCase();
  let prev = "";
  let prev2 = "";
  WORD.lastIndex = 0;
  for (let m: RegExpExecArray | null, n = 0; (m = WORD.exec(t)) !== null && n < 256; n++) {
    const w = m[0].replace(/^['’-]+|['’-]+$/g, "");
    if (TERM_WORDS.has(w) || (prev !== "" && TERM_PHRASES.has(`${prev} ${w}`)) || (prev2 !== "" && TERM_PHRASES.has(`${prev2} ${prev} ${w}`))) return true;
    // (Eleventh round) a phrase written with hyphens (`mental-health`, `self-harm`).
    if (w.includes("-")) {
      const spaced = w.replace(/-/g, " ");
      if (TERM_PHRASES.has(spaced) || (prev !== "" && TERM_PHRASES.has(`${prev} ${spaced}`)) || TERM_PHRASES.has(`${spaced} ${(WORD.exec(t) ?? [""])[0]}`)) return true;
      WORD.lastIndex = m.index + m[0].length;
    }
    if (w.length >= 5) for (const s of TERM_STEMS) if (w.startsWith(s)) return true;
    prev2 = prev;
    prev = w;
  }
  return /\d/.test(text) && DOSE_OR_CODE.test(text);
}
/** Uppercase abbreviations that are special only in capitals (`PIP`, `SEN`, `HIV`): case-sensitive. */
const CAPS_TERMS = /(?<![A-Za-z])(?:PIP|SEN|EHCP|HIV|AIDS|IEP|504 plan)(?![A-Za-z])/;

/** A public proceeding or a news report: a case caption, a wire's attribution, a court's or a paper's words. */
const PROCEEDING = /(?<![\p{L}])(?:v\.|vs\.?|versus)[ \t]|\((?:reuters|ap|afp|bbc|dpa|pa|upi)\)|\b(?:court (?:says|said|hears|heard|rules|ruled)|jury|verdict|indicted|charged with|charges? (?:dropped|filed)|pleaded|plea deal|plea offered|on trial|went on trial|according to|former (?:ceo|chief|minister|mayor|mp|senator|governor|director))\b/iu;

/** Keys and columns that name a special-category field. */
const SPECIAL_KEY = /^(?:condition|conditions|diagnosis|diagnoses|diagnose|dx|icd|icd10|illness|disease|medical|medical notes|medical info|health|health notes|medication|medications|meds|prescription|sen|send|sen status|sen notes|special needs|needs|disability|disabilities|impairment|treatment|therapy|symptoms|sick days|sick leave|absence reason|disciplinary|warning|warnings|sanction|offence|offences|convictions|criminal record|pregnancy|hiv status|mental health|diagnóstico|diagnostico|diagnostic|diagnozė|diagnoza|diagnose|krankheit|erkrankung|enfermedad|maladie|malattia|doença|choroba|athugasemd|sjúkdómur|病名|病歴|診断|疾病|诊断|병명|진단)$/iu;
const NAME_KEY = /^(?:(?:full |first |last |given |family |sur)?name|names|firstname|lastname|surname|forename|patient|patient name|pupil|pupil name|student|student name|child|child name|employee|employee name|staff|staff name|member|person|customer|customer name|client|client name|resident|guest|worker|applicant|candidate|hire|tenant|mitarbeiter|mitarbeiterin|medewerker|werknemer|empleado|empleada|trabajador|salarié|salariée|employé|employée|dipendente|lavoratore|funcionário|colaborador|pracownik|nafn|nombre|nom|nome|vardas|imię|imie|nazwisko|vorname|nachname|navn|namn|nimi|naam|氏名|名前|姓名|이름|성명)$/iu;

/** Keys whose value is free text, read as a line is (a transcript's `text`, a note's `body`). */
const TEXT_KEY = /^(?:text|message|msg|note|notes|body|content|comment|comments|description|summary|transcript|utterance|entry|line|details|remarks|answer|answers|response|reply|feedback)$/;
/** A customer's secret read out (a PIN, a passcode, a memorable word): a record of it beside a name is a credential. */
const PIN = /(?<![\p{L}])(?:pin|passcode|pass code|security code|memorable (?:word|answer)|security answer)(?:[ \t]{1,3}(?:number|code|is|was|=))?[ \t:=#]{0,3}\d{4,8}(?![\d])/iu;

interface Cell {
  key: string | null;
  text: string;
  site: StringSite;
  start: number;
}
type Rec = Cell[];

function words(k: string): string {
  return k
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .trim()
    .toLowerCase();
}

/**
 * Whether a text can hold none of the names personOf looks for: ASCII with fewer than two capitals. Every pattern it
 * reads needs two upper-case letters (`\p{Lu}`, in ASCII `[A-Z]`) or a character outside ASCII (the CJK names), so
 * a record of such texts (most of a sentence split at its `;`s) skips the four Unicode searches (issue 25).
 */
function noName(text: string): boolean {
  let caps = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) return false;
    if (c >= 65 && c <= 90 && ++caps >= 2) return false;
  }
  return true;
}

/** A person's name in a record: from a name field, or the first full name in its text that is nobody's title. */
function personOf(rec: Rec): string | null {
  if (rec.every((c) => noName(c.text))) return null;
  for (const c of rec) {
    if (c.key !== null && NAME_KEY.test(words(c.key))) {
      const t = c.text.trim();
      const m = NAME.exec(t) ?? INITIAL_SURNAME.exec(t);
      if (m && !NOT_PERSON.test(t)) return m[0];
      return null;
    }
  }
  // (exf31) A table whose name column is headed otherwise (`Driver`, `Tenant`, `Bewohner`): its first cell when that
  // cell is a name and nothing else (`J. Harlan`, `Mrs J Ellis`, `Rosa Sandoval`).
  const first = rec[0];
  if (first !== undefined && first.key !== null && rec.length >= 3) {
    const t = first.text.trim();
    const m = t.length <= 48 ? (TITLED_NAME.exec(t) ?? INITIAL_SURNAME.exec(t) ?? NAME.exec(t)) : null;
    if (m && m[0].length === t.length && !NOT_PERSON.test(t) && !CLINICIAN_NAME.test(t)) return m[0];
  }
  // (exf31) A name after a title of address (`Mrs J Ellis`, `Mr K Owusu`, `Herr Braun`): a person however the rest is written.
  for (const c of rec) {
    if (c.key !== null && !TEXT_KEY.test(words(c.key))) continue;
    const m = TITLED_NAME.exec(c.text);
    if (m) return m[0];
  }
  for (const c of rec) {
    if (c.key !== null && !TEXT_KEY.test(words(c.key))) continue;
    const m = NAME.exec(c.text);
    if (!m) continue;
    if (CLINICIAN.test(c.text.slice(Math.max(0, m.index - 8), m.index)) || CLINICIAN_NAME.test(m[0])) return null;
    if (NOT_PERSON.test(m[0]) || /\b(?:test|example|sample|dummy|demo|mustermann|doe)\b/i.test(m[0])) return null;
    return m[0];
  }
  // (Eighteenth round) a name written SURNAME/GIVEN at the record's head, as reservation, ticketing and passport
  // systems write it (`NOWAK/ANNA`), after a short code at most (a service or seat code).
  for (const c of rec) {
    if (c.key !== null && !TEXT_KEY.test(words(c.key))) continue;
    const m = SLASH_NAME.exec(c.text.length > 64 ? c.text.slice(0, 64) : c.text);
    if (m && m.index <= 16 && slashName(m[0])) return m[0];
  }
  // Initials with a birth date: identifiable all the same (a lab's results list, a class list).
  for (const c of rec) {
    if (c.key !== null && !TEXT_KEY.test(words(c.key))) continue;
    // (Thirteenth round) a surname after its initial at the record's head (`R. Jansen — hernia`): special() still
    // wants the record's own condition or key.
    const i = INITIAL_SURNAME.exec(c.text);
    if (i && (i.index <= 8 || HEADED.test(c.text.slice(Math.max(0, i.index - 3), i.index))) && !CLINICIAN.test(c.text.slice(Math.max(0, i.index - 8), i.index)) && !CLINICIAN_NAME.test(c.text.trimStart())) return i[0];
  }
  for (const c of rec) {
    if (c.key !== null && !TEXT_KEY.test(words(c.key))) continue;
    const m = INITIAL_NAME.exec(c.text);
    if (m && (BIRTH_DATE.test(c.text) || STREET.test(c.text)) && !CLINICIAN.test(c.text.slice(Math.max(0, m.index - 8), m.index))) return m[0];
  }
  return null;
}

/**
 * (Fourteenth round) A numbered form named in a record (`ITDM 5870 form`, `form I-9`, `MCSA-5875 form`): the document
 * a condition was certified on, not a product's form being worked on (WORK's `form`).
 */
const FORM_REF = /\b(?:[A-Z]{2,6}[ -]?)?\d{2,6} form\b|\bform [A-Z]{0,3}-?\d{1,6}[A-Z]?\b/g;
/** (Fourteenth round) A name after a heading's colon (`Hearing test results hall 3: Z. Wei – …`): the record's head all the same. */
const HEADED = /:[ \t]{0,2}$/;
/** (Fourteenth round) A phone number in international form: with a birth date or a home address, what makes an injury someone's (a claims list). */
const PHONE = /\+\d{1,3}[ \t.-]?\d{1,4}(?:[ \t.-]?\d{2,4}){2,4}(?![\d])/;
/**
 * (Fourteenth round) A health or care identifier under its own key (`ihi`, `mrn`, `nhs_number`, `medicare`, `phn`):
 * a record with no name whose person is that number, as an e-mail address is in mailPerson. Only beside a special
 * field (special() still decides); six digits at least (a research extract's `P-0012` pseudonym is no one).
 */
const HEALTH_ID_KEY = /^(?:ihi|mrn|nhs|nhs number|nhs no|chi|chi number|medicare|medicare number|phn|cns|nss|nuss|health id|health number|health card|patient id|patient number|medical record|medical record number|insurance number|member id)$/;
function idPerson(rec: Rec): string | null {
  for (const c of rec) {
    if (c.key === null || !HEALTH_ID_KEY.test(words(c.key))) continue;
    const t = c.text.trim();
    if (t.length <= 24 && (t.match(/\d/g) ?? []).length >= 6) return t;
  }
  return null;
}

function special(rec: Rec, name: string): boolean {
  for (const c of rec) {
    const t = c.text.trim();
    if (t.length === 0) continue;
    if (c.key !== null && SPECIAL_KEY.test(words(c.key))) {
      if (!/^(?:none|n\/a|na|no|-|—|nil|keine|ninguna|aucune|nei|brak)$/i.test(t)) return true;
      continue;
    }
    const rest = t.split(name).join(" ");
    // (Thirteenth round) a public proceeding (a docket's `State v. …`, a news item's `(Reuters)`, "court says"): what
    // a court or a paper publishes, not a check's finding on someone, unless the record also holds their birth date or home.
    if (PROCEEDING.test(rest) && !rec.some((o) => BIRTH_DATE.test(o.text) || STREET.test(o.text))) continue;
    if (hasTerm(rest) || CAPS_TERMS.test(rest) || PIN.test(rest)) return !DONOR.test(rest) && !ORGANISATION.test(rest) && !WORK.test(t.replace(FORM_REF, " "));
    if (hasInjury(rest) && rec.some((o) => BIRTH_DATE.test(o.text) || STREET.test(o.text) || PHONE.test(o.text))) return !WORK.test(t);
  }
  return false;
}

/** (Fourteenth round) Keys naming a measure of someone's body or cycle (a health or fitness app's fields). */
const HEALTH_MEASURE_KEY = /(?:^|[_ -])(?:pregnan[a-z]{0,8}|menstrua[a-z]{0,6}|cycle[_ -]?day|cycle[_ -]?phase|period[_ -]?(?:start|day|length)|ovulat[a-z]{0,6}|fertil[a-z]{0,6}|resting[_ -]?hr|heart[_ -]?rate|hrv|blood[_ -]?pressure|blood[_ -]?glucose|glucose|spo2|bmi)(?:$|[_ -])/i;

/** Keys that hold an e-mail address. */
const EMAIL_KEY = /^(?:e ?mail|e ?mail address|email addr|contact email|correo|courriel)$/;
const EMAIL_VALUE = /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}$/;
/** Documentation's and fixtures' domains: a placeholder, no one. */
const EXAMPLE_MAIL = /@(?:example\.(?:com|org|net)|test\.com|test|localhost|invalid)$/i;

/**
 * (Twelfth round) A record with no name whose person is its e-mail address (a campaign's contacts): the address
 * identifies someone as a name does. Only beside a condition term under a key naming the field (`diagnosis`,
 * `condition`): a product's `condition: used` or a newsletter's topic is no one's health.
 */
function mailPerson(rec: Rec): string | null {
  let mail: string | null = null;
  for (const c of rec) {
    const t = c.text.trim();
    if (c.key !== null && EMAIL_KEY.test(words(c.key)) && EMAIL_VALUE.test(t) && !EXAMPLE_MAIL.test(t)) {
      mail = t;
      break;
    }
  }
  // (Thirteenth round) or an address in the record's own text (`vexx (vexx@mail.example): '…'`).
  if (mail === null)
    for (const c of rec) {
      if (c.key !== null && !TEXT_KEY.test(words(c.key))) continue;
      if (!c.text.includes("@")) continue;
      const m = EMAIL.exec(c.text);
      if (m && !EXAMPLE_MAIL.test(m[0])) {
        mail = m[0];
        break;
      }
    }
  if (mail === null) return null;
  // (Fourteenth round) a measure of the body under its own key (`pregnancy_flag`, `cycle_day`, `resting_hr`,
  // `blood_glucose`): a health app's data about the person at that address, whatever the value.
  if (rec.some((c) => c.key !== null && HEALTH_MEASURE_KEY.test(c.key) && c.text.trim() !== "")) return mail;
  for (const c of rec) {
    if (c.key === null || !SPECIAL_KEY.test(words(c.key))) continue;
    const t = c.text.trim();
    if (hasTerm(t) && !DONOR.test(t) && !ORGANISATION.test(t) && !WORK.test(t)) return mail;
  }
  // (Thirteenth round) the person's own words about their condition beside their address (a support ticket, a
  // survey's answer): "I have epilepsy", "don't tell my parents". A topic chosen, a bug report or a product's
  // feedback does not speak of the writer's health (WORK, DONOR).
  for (const c of rec) {
    if (c.key !== null && !TEXT_KEY.test(words(c.key))) continue;
    const t = c.text.length > MAX_RECORD * 2 ? c.text.slice(0, MAX_RECORD * 2) : c.text;
    const rest = t.split(mail).join(" ");
    if ((hasTerm(rest) || CAPS_TERMS.test(rest)) && firstPerson(rest) && !DONOR.test(rest) && !ORGANISATION.test(rest) && !WORK.test(rest)) return mail;
  }
  return null;
}

/** A string under a key naming a special-category field (`diagnosis`, `病名`). */
function keyed(s: StringSite): boolean {
  const last = s.path[s.path.length - 1];
  if (typeof last !== "string" || last.length > 40) return false;
  return SPECIAL_KEYS.has(last) || (/[A-Z_.-]/.test(last) && SPECIAL_KEYS.has(words(last)));
}
const SPECIAL_KEYS = new Set(SPECIAL_KEY.source.replace(/^\^\(\?:|\)\$$/g, "").split("|"));

/** The lists of records in one string: a table with a header, lines, or the `;`-entries of one line. */
function textLists(site: StringSite, lists: Rec[][]): void {
  const v = site.value.length > MAX_TEXT ? site.value.slice(0, MAX_TEXT) : site.value;
  if (v.length < 30) return;
  const lines: { text: string; start: number }[] = [];
  let at = 0;
  while (at <= v.length && lines.length < MAX_RECORDS) {
    let end = v.indexOf("\n", at);
    if (end < 0) end = v.length;
    const text = v.slice(at, end);
    if (text.trim().length > 0) lines.push({ text, start: at });
    at = end + 1;
  }
  // (Eleventh round) people listed in one line, each with their details in brackets: `Owen Price (12 Mill Lane,
  // cancer treatment), S. Ahmed (…)`. The line splits at the commas and semicolons outside brackets; each part with
  // a bracket is a record.
  for (const l of lines) if (l.text.length <= MAX_RECORD * 16 && l.text.indexOf("(") !== l.text.lastIndexOf("(")) bracketed(l.text, l.start, site, lists);
  // (Eighteenth round) people listed in one sentence, each part a name and what is said of them: `notes: Ann Lee
  // asthma, Bo Kim on insulin, Cy Ng pregnant`. Three parts or more that each begin with a full name are records.
  for (const l of lines) if (l.text.length <= MAX_RECORD * 16 && l.text.includes(",")) namedParts(l.text, l.start, site, lists);
  if (lines.length >= 2) {
    // A header row (words only, split by , ; tab or |) names the columns.
    const first = lines[0] as { text: string; start: number };
    const sep = [",", "\t", ";", "|"].find((c) => first.text.includes(c));
    const cols = sep !== undefined && !/\d/.test(first.text) ? first.text.split(sep).map((c) => c.replace(/^[\s"']+|[\s"']+$/g, "")) : null;
    // A header's columns are short names (three words at most), and most lines below split as it does.
    const rowsSplit = cols === null ? 0 : lines.slice(1).filter((l) => l.text.split(sep as string).length >= cols.length - 1).length;
    if (cols !== null && cols.length >= 2 && cols.every((c) => c.length > 0 && c.length <= 32 && c.split(/\s+/).length <= 3 && !/[–—:!?]/.test(c)) && rowsSplit * 2 >= lines.length - 1) {
      const recs: Rec[] = [];
      for (const l of lines.slice(1)) {
        const cells = l.text.split(sep as string);
        if (cells.length < 2) continue;
        let off = l.start;
        const rec: Rec = [];
        cells.forEach((c, i) => {
          rec.push({ key: cols[i] ?? null, text: c, site, start: off });
          off += c.length + 1;
        });
        recs.push(rec);
      }
      lists.push(recs);
      return;
    }
  }
  if (lines.length >= 2) {
    lists.push(lines.filter((l) => l.text.length <= MAX_RECORD).map((l) => [{ key: null, text: l.text, site, start: l.start }]));
    return;
  }
  // One line: its `;`-separated entries.
  const line = lines[0];
  if (line === undefined || !line.text.includes(";")) return;
  const recs: Rec[] = [];
  let off = line.start;
  for (const part of line.text.split(";")) {
    if (part.length <= MAX_RECORD) recs.push([{ key: null, text: part, site, start: off }]);
    off += part.length + 1;
  }
  lists.push(recs);
}

/** A line's records in brackets (see textLists): at most 64, each 240 characters at most with its bracket. */
function bracketed(line: string, offset: number, site: StringSite, lists: Rec[][]): void {
  const recs: Rec[] = [];
  let depth = 0;
  let from = 0;
  let paren = false;
  const close = (to: number) => {
    const text = line.slice(from, to);
    if (paren && text.length <= MAX_RECORD && recs.length < 64) recs.push([{ key: null, text, site, start: offset + from }]);
    from = to + 1;
    paren = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "(") {
      depth++;
      paren = true;
    } else if (c === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === "," || c === ";")) close(i);
  }
  close(line.length);
  if (recs.length >= 2) lists.push(recs);
}

/** A full name at a part's head, or after a heading's colon within its first words. */
const HEAD_NAME = new RegExp(`^[ \\t]{0,3}(?:[^:,;]{0,40}:[ \\t]{1,3})?(?:${NAME.source})`, "u");

function namedParts(line: string, offset: number, site: StringSite, lists: Rec[][]): void {
  const recs: Rec[] = [];
  let depth = 0;
  let from = 0;
  let parts = 0;
  const close = (to: number) => {
    const text = line.slice(from, to);
    if (++parts <= 64 && text.length <= MAX_RECORD && HEAD_NAME.test(text)) recs.push([{ key: null, text, site, start: offset + from }]);
    from = to + 1;
  };
  for (let i = 0; i < line.length && parts < 64; i++) {
    const c = line[i];
    if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === "," || c === ";")) close(i);
  }
  if (parts < 64) close(line.length);
  if (recs.length >= 3) lists.push(recs);
}

/** Arrays of objects in a JSON value: each object a record of its string leaves (one level of nesting read). */
function jsonLists(value: unknown, site: StringSite, lists: Rec[][], depth: number): void {
  if (depth > 6 || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    const recs: Rec[] = [];
    for (const item of value.slice(0, 64)) {
      if (item !== null && typeof item === "object" && !Array.isArray(item)) {
        const rec: Rec = [];
        for (const [k, x] of Object.entries(item as Record<string, unknown>)) if (typeof x === "string" || typeof x === "number" || typeof x === "boolean") rec.push({ key: k, text: String(x), site, start: 0 });
        recs.push(rec);
      } else if (Array.isArray(item) && item.length <= 32 && item.every((x) => typeof x === "string" || typeof x === "number")) {
        // (Fourteenth round) a row as an array of cells (a sheet's `values`): one record.
        recs.push(item.map((x) => ({ key: null, text: String(x), site, start: 0 })));
      } else if (typeof item === "string" && item.length <= MAX_RECORD) recs.push([{ key: null, text: item, site, start: 0 }]);
    }
    if (recs.length >= 2) lists.push(recs);
    for (const item of value.slice(0, 64)) jsonLists(item, site, lists, depth + 1);
    return;
  }
  for (const x of Object.values(value as Record<string, unknown>).slice(0, 64)) jsonLists(x, site, lists, depth + 1);
}

/** The items of arrays in the message itself: strings sharing a path up to an array index. */
function messageLists(sites: StringSite[], lists: Rec[][]): void {
  const groups = new Map<string, Map<number, Rec>>();
  for (const s of sites.slice(0, 4096)) {
    const p = s.path;
    for (let i = p.length - 1; i >= 0; i--) {
      let at = p[i];
      if (typeof at !== "number") continue;
      // (Fourteenth round) a cell of a row given as an array (`rows: [["R. Alvarez", "CDL …", "…"], …]`): the row is the record.
      if (i === p.length - 1 && i >= 1 && typeof p[i - 1] === "number") at = p[--i] as number;
      const parent = JSON.stringify(p.slice(0, i));
      let g = groups.get(parent);
      if (!g) groups.set(parent, (g = new Map()));
      let rec = g.get(at);
      if (!rec) g.set(at, (rec = []));
      const key = i + 1 < p.length && typeof p[p.length - 1] === "string" ? String(p[p.length - 1]) : null;
      if (rec.length < 32) rec.push({ key, text: s.value.length > MAX_RECORD * 4 ? s.value.slice(0, MAX_RECORD * 4) : s.value, site: s, start: 0 });
      break;
    }
  }
  for (const g of groups.values()) if (g.size >= 2) lists.push([...g.values()].slice(0, 64));
}

/**
 * The literal prefilter (literals.ts): for a short message, a term, a key or a PIN must be there (folded as the
 * prefilter folds characters beyond ASCII; phrases by their first word) before any record is read. The special keys of scripts without
 * ASCII (病名, 진단) are read from the message's own keys, not prefiltered; in a JSON text they pass this filter only
 * beside another term.
 */
function asciiCore(w: string): string | null {
  // As the prefilter folds them: a character beyond ASCII is its low seven bits with the 0x20 bit set.
  let out = "";
  for (const ch of (w.split(" ")[0] as string).toLowerCase()) {
    const c = ch.codePointAt(0) as number;
    out += c < 128 ? ch : String.fromCharCode((c | 0x20) & 0x7f);
  }
  return /^[a-z0-9]/.test(out) && out.length >= 2 ? out : null;
}
const SPECIAL_LITERALS = [
  ...new Set(
    [
      ...TERM_WORDS,
      ...TERM_STEMS,
      ...INJURY_WORDS,
      ...COURT_ORDERS.map((o) => o.split(" ")[0] as string),
      ...[...TERM_PHRASES].map((p) => p.split(" ")[0] as string),
      ...["ehcp", "hiv", "pin", "passcode", "memorable", "security", "mg"],
      // (Fourteenth round) the body-measure keys' stems (HEALTH_MEASURE_KEY) and the audiogram's unit.
      ...["glucose", "menstrua", "ovulat", "fertil", "resting", "db", "cycle_day", "cycleday", "cycle_phase", "heart_rate", "heartrate", "blood_pressure", "bloodpressure", "period_start", "spo2"],
      // Keys of four letters or fewer (`meds`, `dx`) are found as keys; in text they would open the filter to most messages.
      ...SPECIAL_KEY.source.replace(/^\^\(\?:|\)\$$/g, "").split("|").filter((k) => k.length >= 5),
    ]
      .map(asciiCore)
      // Pairs of letters are what the prefilter holds: a word of three letters or fewer passes it in most texts, so
      // only a few are kept (the rest are found beside a longer term, or under their key).
      .filter((x): x is string => x !== null && /^[\x00-\x7f]+$/.test(x) && (x.length >= 4 || ["hiv", "mg", "pin", "ivf", "dui", "dwi"].includes(x))),
  ),
].map((l) => literalId(l));

/** Special-category records in bulk (see above). */
export function detectSpecial(sites: StringSite[]): Detection[] {
  // A list first (native searches: an array in the message, a JSON text, lines, `;`-entries or two brackets), then the literal filter.
  if (!sites.some((s) => s.path.some((x) => typeof x === "number") || (s.value.length >= 30 && (/^\s*[[{]/.test(s.value) || s.value.includes("\n") || s.value.includes(";") || s.value.includes(",") || s.value.indexOf("(") !== s.value.lastIndexOf("("))))) return [];
  const lits = literalsOf(sites);
  if (lits !== null && !lits.any(SPECIAL_LITERALS) && !sites.some((s) => keyed(s))) return [];
  const lists: Rec[][] = [];
  messageLists(sites, lists);
  for (const site of sites) {
    const v = site.value;
    if (v.length < 30) continue;
    const t = v.trimStart();
    if ((t.startsWith("[") || t.startsWith("{")) && v.length <= MAX_TEXT) {
      try {
        jsonLists(JSON.parse(v), site, lists, 0);
        continue;
      } catch {
        // not JSON: read as text
      }
    }
    textLists(site, lists);
  }
  const out: Detection[] = [];
  let seen = 0;
  for (const list of lists) {
    if (list.length < 2) continue;
    const names = new Set<string>();
    const tried = new Set<string>();
    const hits: Cell[] = [];
    let initialsOnly = 0;
    for (const rec of list) {
      if (++seen > MAX_RECORDS) return out;
      const named = personOf(rec);
      // (Twelfth round) or its e-mail address, beside a keyed condition (mailPerson judges both).
      const mail = named === null ? mailPerson(rec) : null;
      const name = named ?? mail ?? idPerson(rec);
      if (name === null || names.has(name) || tried.has(name)) continue;
      tried.add(name);
      if (mail === null && !special(rec, name)) continue;
      names.add(name);
      if (/^\p{Lu}\./u.test(name) && !rec.some((o) => BIRTH_DATE.test(o.text) || STREET.test(o.text))) initialsOnly++;
      hits.push(rec[0] as Cell);
    }
    // (Thirteenth round) people named only by a surname after its initial are a list from three (`R. Patel (bipolar),
    // H. Ward (epilepsy)` is a note about two, as the eleventh round judged it).
    if (names.size >= 2 && (names.size >= 3 || initialsOnly === 0)) for (const h of hits) out.push({ type: "pii_bulk.special", path: h.site.path, start: h.start, end: h.start + Math.min(h.text.length, MAX_RECORD) });
  }
  return out;
}

/**
 * A table's sample with the count of the rows left out (`…(212 rows)`, `... 8,112 more rows`, `(+340 more)`): how an
 * export is previewed. The count, or 0 when the text's last line declares none.
 */
const MORE_ROWS = /(?:…|\.{3})[ \t]{0,3}\(?[ \t]{0,3}(?:and[ \t]{1,3}|\+[ \t]{0,2})?(\d{1,3}(?:[,. ]\d{3}){0,3}|\d{1,9})[ \t]{1,3}(?:more[ \t]{1,3})?(?:rows|records|lines|entries|contacts|customers|people|pupils|students|employees|patients|more)\b/i;
/** (Thirteenth round) the remainder in brackets with a plus and no ellipsis: `(+611 rows)`, `[+1,204 more records]`. */
const MORE_ROWS_PLUS = /[([][ \t]{0,2}\+[ \t]{0,2}(\d{1,3}(?:[,. ]\d{3}){1,3}|\d{1,9})[ \t]{1,3}(?:more[ \t]{1,3})?(?:rows|records|lines|entries|contacts|customers|people|orders|buyers|members|employees|patients|students)\b/i;
export function declaredRows(v: string): number {
  const tail = v.length > 160 ? v.slice(-160) : v;
  const m = MORE_ROWS.exec(tail) ?? MORE_ROWS_PLUS.exec(tail);
  return m ? Number((m[1] as string).replace(/[,. ]/g, "")) : 0;
}

const CONTACT_COL = /^(?:[\p{L}]{1,12} )?(?:e-?mail|e mail|email address|mail|phone|phone number|mobile|mobile phone|cell|tel|telephone|address|home address|street|street address|addr|postcode|zip|city|adresse|anschrift|telefon|handy|direcci[óo]n|tel[ée]fono|m[óo]vil|correo|t[ée]l[ée]phone|portable|indirizzo|cellulare|endere[çc]o|adres|telefoon|adress|osoite|puhelin)$/iu;
const REACH_COL = /^(?:[\p{L}]{1,12} )?(?:phone|phone number|mobile|mobile phone|cell|tel|telephone|address|home address|street|street address|addr|adresse|anschrift|telefon|handy|direcci[óo]n|tel[ée]fono|m[óo]vil|t[ée]l[ée]phone|portable|indirizzo|cellulare|endere[çc]o|adres|telefoon|adress|osoite|puhelin)$/iu;

/**
 * (Tenth round) A contact export previewed: a header of two contact columns or more (one a phone or an address), two
 * rows or more under it, and a declared remainder of fifty rows or more (`…(8,112 rows)`). A handful of contacts is a
 * contact list and passes; the preview of thousands is a database leaving. `pii_bulk.records`.
 */
export function contactExport(sites: StringSite[]): Detection[] {
  const out: Detection[] = [];
  for (const site of sites) {
    const v = site.value;
    if (v.length < 40 || v.length > MAX_TEXT) continue;
    const more = declaredRows(v);
    if (more < 50) continue;
    const firstEnd = v.indexOf("\n");
    if (firstEnd < 0 || firstEnd > 400) continue;
    const header = v.slice(0, firstEnd);
    const sep = [",", "\t", ";", "|"].find((c) => header.includes(c));
    if (sep === undefined) continue;
    const cols = header.split(sep).map((c) => words(c.replace(/^[\s"']+|[\s"']+$/g, "")));
    if (cols.filter((c) => CONTACT_COL.test(c)).length < 2 || !cols.some((c) => REACH_COL.test(c))) continue;
    // People's contacts: a name or an e-mail column (offices' phones and addresses are a directory).
    // (Thirteenth round) or a column named for whom the row is: a buyer, a recipient, a member, a tenant, a guest, a patient.
    if (!cols.some((c) => /(?:^|\s)(?:name|e ?mail|mail|contact|customer|client|first|last|surname|buyer|recipient|consignee|member|tenant|guest|patient|employee|student)$/.test(c))) continue;
    const rows = v.slice(firstEnd + 1).split("\n", 64).filter((l) => l.split(sep).length >= cols.length - 1 && /\d|@/.test(l));
    if (rows.length >= 2) out.push({ type: "pii_bulk.records", path: site.path, start: 0, end: firstEnd });
  }
  return out;
}

/** An advertising or analytics collector, by a label of its host name (`collect.adnet-pixel.example`, `api.mixpanel.com`). */
const COLLECTOR_WORDS = new Set(["pixel", "adnet", "ads", "adserver", "adservice", "doubleclick", "tracking", "tracker", "track", "collect", "collector", "analytics", "beacon", "telemetry", "segment", "mixpanel", "amplitude", "hotjar", "appsflyer"]);
/** Whether a string is a web address whose host has a collector's word as a label or a hyphenated part of one. */
function collectorHost(v: string): boolean {
  const m = /^\s*https?:\/\/([^/?#:\s]{1,253})/i.exec(v);
  return m !== null && (m[1] as string).toLowerCase().split(/[.-]/).some((p) => COLLECTOR_WORDS.has(p));
}
const EMAIL = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}\.[A-Za-z]{2,}/;

/**
 * (Tenth round) Health data about someone identified, sent to an advertising or analytics collector: an e-mail
 * address beside a condition in one event (a string of 4 KB at most) of a call whose address is a collector's (a host label such as `pixel`, `ads`, `track`,
 * `collect`, `analytics`, `segment`, `mixpanel`). One person is enough: what such a host does with it is profiling.
 * Events without a condition, or a condition without anyone identified (a page view of an article), pass.
 */
export function healthToCollector(sites: StringSite[]): Detection[] {
  let collector = false;
  for (const s of sites) if (s.value.length <= 2048 && s.value.includes("://") && collectorHost(s.value)) collector = true;
  if (!collector) return [];
  // The person and the condition in one event (one string of 4 KB at most: an event, not a file).
  for (const s of sites) {
    const v = s.value;
    if (v.length > 4096 || !v.includes("@") || !EMAIL.test(v)) continue;
    if (hasTerm(v) || CAPS_TERMS.test(v)) return [{ type: "pii_bulk.special", path: s.path, start: 0, end: Math.min(v.length, MAX_RECORD) }];
  }
  return [];
}
