import { DATA_FILE } from "./exfil-outlets.js";
import { fileKind, mailDomains, personalMailbox } from "./exfil-payloads.js";
import type { ChannelFinding } from "./exfil-channels.js";

/*
 * (Sixteenth round, from ATT&CK's Exfiltration tactic and the mail tools' own command lines) Two outlets of a command
 * line that name their destination in a form no URL check reads:
 *
 * - T1048.003 / personal mail: a mail client run from the shell (`mail`, `mailx`, `s-nail`, `mutt`, `neomutt`, `swaks`,
 *   `sendmail`, `msmtp`) with a data file attached (`-a`, `-A`, `--attach`) or fed on standard input (`< file`,
 *   `cat file |`), to a personal mailbox (gmail, outlook, proton…: the shared list of exfil-payloads.ts). A build log
 *   to anyone, a report to a colleague's company address, a PDF to a client's gmail pass.
 * - T1537 (transfer data to a cloud account): a disk or database snapshot shared with everybody (`--group-names all`,
 *   `Group=all`, `--values-to-add all`). A snapshot shared with a named account id (the user's own DR account as often
 *   as anyone's) passes: whose account it is cannot be told.
 *
 * Lexical and bounded: one command line of 64 KB at most, split on `;`, `&&`, `||`, `|` and new lines (64 parts).
 */

const MAILERS = /^(?:mail|mailx|s-nail|mutt|neomutt|swaks|sendmail|msmtp)$/;
/** Documents and media named for a subject (`hr/handbook.pdf`): not a data file by a word of their name. */
const DOCUMENT = /\.(?:pdf|md|txt|log|html?|docx?|pptx?|odt|odp|png|jpe?g|gif|svg|webp|mp4|mov|webm|mp3)$/i;

const unquote = (w: string) => w.replace(/^["']+|["']+$/g, "");

/** (Phase two) An identity document or a tax form by its name: `kyc/…_passport.pdf`, `scans/id-card_front.jpg`, `w2_2025.pdf`. */
const ID_DOCUMENT = /(?:^|[/_.-])(?:passports?|kyc|id[_-]?cards?|national[_-]?id|driv(?:er|ing)s?[_-]?licen[cs]es?|w-?2|w-?9|1099|tax[_-]?returns?)(?:[/_.-]|$)/i;

export function dataFile(f: string): boolean {
  if (f.length > 300 || f === "-" || /^https?:/i.test(f)) return false;
  return fileKind(f) !== null || ID_DOCUMENT.test(f) || (DATA_FILE.test(f) && (!DOCUMENT.test(f) || /(?:^|\/)\.(?:ssh|aws|gnupg|kube|docker|azure)\//.test(f)));
}

/** Keys of a call's arguments that name a file it sends. */
const FILE_ARG = /^(?:file|files|file_?path|file_?name|filename|path|local_?(?:path|file)|source|src|attachment|attachments|document|upload)$/i;
/** A file a request body or a form hands over by reference: `document=@/srv/export/full.zip`, `-F f=@dump.sql`. */
const FILE_REF = /(?:^|[\s&;"'])[\w.[\]-]{1,40}=@["']?([^\s&;"'<>|]{1,300})/g;

/**
 * (Sixteenth round, phase two) A data file a request to somebody's intake (a relay, a drop, a paste site, a pinning
 * service) hands over by reference — a form field `=@path` in a body, or an argument named for a file — rather than
 * as text the payload judgements read. Null when there is none.
 */
export function handedDataFile(value: string, key: string | number | undefined): string | null {
  if (value.length > 65536) return null;
  if (typeof key === "string" && FILE_ARG.test(key) && dataFile(value.trim())) return value.trim();
  if (!value.includes("=@")) return null;
  FILE_REF.lastIndex = 0;
  for (let m, n = 0; (m = FILE_REF.exec(value)) !== null && n < 16; n++) if (dataFile(m[1] as string)) return m[1] as string;
  return null;
}

const SPLIT = /(\|\||&&|[;|\n])/;

function mailed(v: string): ChannelFinding[] {
  const out: ChannelFinding[] = [];
  const parts = v.split(SPLIT, 127);
  let offset = 0;
  let fed: string | null = null;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] as string;
    if (i % 2 === 1) {
      if (p !== "|") fed = null;
      offset += p.length;
      continue;
    }
    const words = p.trim().split(/\s+/, 96).map(unquote);
    let at = 0;
    while (at < words.length && /^(?:sudo|nohup|exec|command|[A-Za-z_][A-Za-z0-9_]*=.*)$/.test(words[at] as string)) at++;
    const name = (words[at] ?? "").replace(/^.*\//, "");
    if (MAILERS.test(name)) {
      const a = words.slice(at + 1);
      let file: string | null = fed;
      for (let k = 0; k < a.length && file === null; k++) {
        const w = a[k] as string;
        const next = a[k + 1] ?? "";
        if ((w === "-a" || w === "-A" || w === "--attach" || w === "--attach-type" || w === "<") && dataFile(next.replace(/^@/, ""))) file = next.replace(/^@/, "");
        else if (/^(?:--attach=|<)/.test(w) && dataFile(w.replace(/^(?:--attach=@?|<)/, ""))) file = w.replace(/^(?:--attach=@?|<)/, "");
      }
      const personal = mailDomains(p, 16).some(personalMailbox);
      if (file !== null && personal) out.push({ start: offset, end: offset + p.length, detail: `a data file (${file}) mailed to a personal mailbox` });
    }
    // What this part feeds the next through a pipe: `cat <data file>`.
    fed = null;
    if (name === "cat" || name === "gzip" || name === "zcat") {
      const f = words.slice(at + 1).find((w) => !w.startsWith("-"));
      if (f !== undefined && dataFile(f)) fed = f;
    }
    offset += p.length;
  }
  return out;
}

const SNAPSHOT_SHARE = /\baws\s{1,4}(?:ec2\s{1,4}modify-snapshot-attribute|rds\s{1,4}modify-db(?:-cluster)?-snapshot-attribute)\b[^\n;&|]{0,600}?(?:--group-names\s{1,4}["']?all\b|Group["']?\s{0,2}[=:]\s{0,2}["']?all\b|--values-to-add\s{1,4}(?:\S{1,40}\s{1,4}){0,8}["']?all\b)/gi;

function sharedSnapshots(v: string): ChannelFinding[] {
  const out: ChannelFinding[] = [];
  SNAPSHOT_SHARE.lastIndex = 0;
  for (let m, n = 0; (m = SNAPSHOT_SHARE.exec(v)) !== null && n < 8; n++) out.push({ start: m.index, end: m.index + m[0].length, detail: "a snapshot shared with everybody" });
  return out;
}

const MAIL_GATE = /\b(?:mail|mailx|s-nail|mutt|neomutt|swaks|sendmail|msmtp)\s/;
const SNAPSHOT_GATE = /snapshot-attribute/;

/** Every sixteenth-round outlet in one command line. */
export function commandSenders(v: string): ChannelFinding[] {
  if (v.length > 65536) return [];
  return [...(MAIL_GATE.test(v) && v.includes("@") ? mailed(v) : []), ...(SNAPSHOT_GATE.test(v) ? sharedSnapshots(v) : [])];
}

/** Keys that name a credential: `refresh_token`, `access_token`, `client_secret`, `api_key`, `private_key`. */
const CREDENTIAL_KEY = /["']?\b((?:refresh|access|id|auth|bearer|session|api|oauth)[_-]?token|client[_-]?secret|api[_-]?key|secret[_-]?key|private[_-]?key)["']?\s{0,3}[:=]\s{0,3}["']?([A-Za-z0-9._~+/=-]{20,512})/gi;

/**
 * (Sixteenth round, phase two) A credential handed to a relay or a form back-end under a key that names it, with a
 * random-looking value: `{"refresh_token":"v7X9…"}`, `client_secret=…`. A key named so with a word or a reference as its
 * value (`"api_key": "${API_KEY}"`, `access_token=none`) is not one.
 */
export function namedCredential(text: string): string | null {
  if (text.length > 65536 || !/token|secret|key/i.test(text)) return null;
  CREDENTIAL_KEY.lastIndex = 0;
  for (let m, n = 0; (m = CREDENTIAL_KEY.exec(text)) !== null && n < 16; n++) {
    const v = m[2] as string;
    if (/[a-z]/.test(v) && /[A-Z0-9]/.test(v) && /\d/.test(v) && new Set(v).size >= 12) return `a ${(m[1] as string).toLowerCase().replace(/-/g, "_")}`;
  }
  return null;
}
