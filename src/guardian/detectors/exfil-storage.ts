import { DATA_FILE } from "./exfil-outlets.js";

/*
 * (exf28) A data file uploaded to a personal cloud drive (exfil-payloads.ts sentFiles; finding `exfiltration.request`,
 * detail "the call sends a data file to a personal cloud drive (<host>)"; docs/detection.md, "exf28").
 *
 * What a consumer file-storage service is given by a URL in the call (Dropbox's upload API, its shared and request
 * links, a MEGA upload or folder link, a Google Drive folder link, a personal OneDrive, pCloud or iCloud Drive) lands
 * in whichever account made the link or holds the token: the call cannot show it is the deployment's. A table, a
 * database or its dump, an export folder's file, an archive or an XML/JSON export sent there leaves. What passes: a
 * document or an image (a PDF, a deck, a photo), a company's own tenant (`<org>.sharepoint.com`, an S3 bucket, a Box
 * or Drive API under the organisation's app), downloads from such a link, local hosts and the rule's allow list.
 *
 * Linear: fixed host patterns, one path test, no nested quantifiers.
 */

const DROPBOX = /^(?:www\.)?dropbox\.com$|^(?:content|api)\.dropboxapi\.com$|^dl\.dropboxusercontent\.com$/;
const MEGA = /^(?:www\.)?mega\.(?:nz|io|co\.nz)$/;
const ONEDRIVE = /^(?:onedrive\.live\.com|1drv\.ms|api\.onedrive\.com)$/;
const PCLOUD = /^(?:[a-z]{1,8}\.)?pcloud\.(?:com|link)$/;

/** A consumer file-storage service's upload endpoint or link, by host and path. */
export function personalDrive(host: string, path: string): boolean {
  if (DROPBOX.test(host) || MEGA.test(host) || ONEDRIVE.test(host) || PCLOUD.test(host)) return true;
  if (host === "drive.google.com") return /^\/drive\/(?:u\/\d{1,2}\/)?folders\//.test(path);
  if (host === "www.icloud.com" || host === "icloud.com") return /^\/iclouddrive\//.test(path);
  return false;
}

/** An archive or a structured export, beyond DATA_FILE's tables, dumps and export folders. */
const ARCHIVE_OR_EXPORT = /\.(?:tar|tgz|zip|7z|rar|xml|json|ndjson|xlsm|ods|mdb|accdb|sav|dta)(?:\.(?:gz|bz2|xz|zst|gpg))?$/i;

const DOCUMENT = /\.(?:pdf|docx?|pptx?|odt|odp|rtf|txt|md|jpe?g|png|gif|heic|webp|svg|tiff?|mp4|mov|mp3|wav)$/i;

/** A file that holds data by its name: a table, a dump, an export folder's file, an archive, an XML/JSON export. */
export function dataFileName(path: string): boolean {
  const p = path.trim().replace(/[?#].*$/, "");
  if (p.length === 0 || p.length > 1024) return false;
  // A document, a text or a picture is what a drive is for, whatever folder it sits in (`invoices/INV-0412.pdf`).
  if (DOCUMENT.test(p)) return false;
  return DATA_FILE.test(p) || ARCHIVE_OR_EXPORT.test(p);
}
