/*
 * (Fourteenth round, "exf14") Who a file or a value is handed to, and the benign structures the earlier checks took for
 * data leaving (docs/detection.md, "Fourteenth round: exfiltration (exf14)"):
 *
 * - *A system's export handed to a personal mailbox or a stranger's upload link*: a file under an `exports`,
 *   `extracts` or `dumps` folder (what a system wrote out of its records), sent by e-mail or a transfer service to a
 *   personal mailbox, or uploaded to a file-request link (Box, Dropbox: an inbox owned by whoever made the link). A
 *   photo from such a folder, a design file to a client's file request, an export to a colleague's work address pass.
 * - Guards, each as narrow as the benign structure it answers:
 *   - *a log on a paste site*: a paste whose every payload is a stack trace or an error log and carries no credential,
 *     no record and nothing marked (the bug report upstream asks for); a log with a password in it still counts;
 *   - *a key to the API that issued it*: `api_key=` in the query of a GET to the service's own `api.` host, beside
 *     nothing but short values (a reading, a page): that is how the API is called. A password, a key of another
 *     service, or the same key to a host that is not an API pass nothing;
 *   - *a mailing's merge tag*: an image or link in an outgoing campaign whose only hole is the sending service's tag for
 *     the recipient's id (`{{subscriber_hash}}`, `*|UNIQID|*`): the service fills it when it sends, the model does not.
 */

/** A data export's folder: what a system wrote out of its records. */
const EXPORT_DIR = /(?:^|[/\\])(?:exports?|extracts?|dumps?|data[_-]?exports?)[/\\]/i;
const MEDIA_EXT = /\.(?:jpe?g|png|gif|webp|heic|heif|svg|mp4|mov|m4v|avi|mkv|webm|mp3|m4a|wav|ogg|flac)$/i;

/** Whether a path names a file in a system's export folder (not a photo or a recording). */
export function exportFile(path: string): boolean {
  const p = path.trim();
  return p.length <= 1024 && EXPORT_DIR.test(p) && /\.\w{2,8}$/.test(p) && !MEDIA_EXT.test(p);
}

/** A file-request link: an upload inbox owned by whoever made it (Box, Dropbox). */
export function fileRequestLink(host: string, path: string): boolean {
  return (host === "app.box.com" && /^\/f\/[A-Za-z0-9]{16,64}/.test(path)) || (/^(?:www\.)?dropbox\.com$/.test(host) && /^\/request\/[A-Za-z0-9]{8,40}/.test(path));
}

/* -------------------------------------------------------------------------------------------------------------- */
/* A log on a paste site                                                                                            */
/* -------------------------------------------------------------------------------------------------------------- */

/** Paste sites of the drop list (not tunnels or file drops). */
const PASTE_HOSTS = new Set(["pastebin.com", "paste.ee", "hastebin.com", "dpaste.org", "dpaste.com", "paste.rs", "rentry.co", "rentry.org", "privatebin.net", "controlc.com", "pastes.io", "justpaste.it"]);
/** Lines of a stack trace or an error log. */
const TRACE_LINE = /^\s{0,12}(?:at\s{1,4}\S{1,200}(?:\s{1,4}\(|:\d{1,6})|File\s{1,4}"[^"\n]{1,300}",\s{1,4}line\s{1,4}\d|Traceback\s{1,4}\(most|Caused\s{1,4}by:|\.\.\.\s{0,4}\d{1,6}\s{1,4}more|#\d{1,3}\s{1,4}0x[0-9a-f]{4,16}|goroutine\s{1,4}\d)/m;
const ERROR_WORD = /\b(?:[A-Z][A-Za-z]{0,40}(?:Error|Exception)|Traceback|E[A-Z]{3,15}|panic|FATAL|ERROR|Segmentation fault)\b/;

export function pasteHost(host: string): boolean {
  return PASTE_HOSTS.has(host);
}

/**
 * Whether a paste's text is a stack trace or an error log that the given judge finds nothing in (a credential, a
 * record, a marked text). `judge` is the payload judgement of the drops.
 */
export function logOnly(text: string, judge: (t: string) => string | null): boolean {
  if (text.length > 65_536 || !TRACE_LINE.test(text) || !ERROR_WORD.test(text)) return false;
  return judge(text) === null;
}

/* -------------------------------------------------------------------------------------------------------------- */
/* A key to the API that issued it                                                                                  */
/* -------------------------------------------------------------------------------------------------------------- */

/**
 * (Eighteenth round) A host under a registry only institutions may register in: governments (`.gov`, `gov.uk`,
 * `gouv.fr`, `gob.mx`, `go.jp`…), universities (`.edu`, `ac.uk`, `edu.au`…), `.mil`, `.int`, `europa.eu`. Nobody
 * buys a name there to collect keys: a key to such a host's API is the key's one use (a research database's E-utilities).
 */
const INSTITUTIONAL = /(?:^|\.)(?:gov|edu|mil|int|(?:gov|gouv|gob|govt|gv|ac|edu)\.[a-z]{2}|go\.(?:jp|kr|id|th|ke|tz|ug|cr)|europa\.eu)$/;
export function institutionalHost(host: string): boolean {
  return host.length <= 253 && INSTITUTIONAL.test(host);
}

/**
 * Whether a query key and value are the API's own key in a request to that API: `api_key`/`apikey`/`key` to a host
 * whose first label is `api` (`api.thingspeak.com`), with every other value of the query short (16 characters or
 * fewer: a reading, a page, a field). `secretOfAnother` says whether the value is a recognised key of some service
 * not issued for this host.
 */
export function ownApiKey(key: string, url: URL, secretOfAnother: (v: string) => boolean): boolean {
  if (!/^(?:api[_-]?key|apikey|key|write[_-]?key|read[_-]?key)$/i.test(key)) return false;
  const host = url.hostname.toLowerCase();
  if (!/^api\d{0,2}\.[a-z0-9-]{2,63}\.[a-z]{2,24}$/.test(host) && !institutionalHost(host)) return false;
  let keys = 0;
  for (const [k, v] of url.searchParams) {
    if (/^(?:api[_-]?key|apikey|key|write[_-]?key|read[_-]?key)$/i.test(k)) {
      if (++keys > 1 || secretOfAnother(v) || v.length > 64) return false;
    } else if (v.length > 16) return false;
  }
  return true;
}

/* -------------------------------------------------------------------------------------------------------------- */
/* A mailing's merge tags                                                                                           */
/* -------------------------------------------------------------------------------------------------------------- */

/** A sending service's merge tag for the recipient's id: `{{subscriber_hash}}`, `*|UNIQID|*`, `%%subscriberid%%`, `{$contact_id}`. */
const MERGE_TAG = /\{\{\s{0,2}(?:subscriber|contact|recipient|member|message|campaign|list)[._]?(?:hash|id|uid|uuid|key)\s{0,2}\}\}|\*\|(?:UNIQID|EMAIL_UID|CAMPAIGN_UID|LIST:UID)\|\*|%%(?:subscriberid|_subscriberkey|jobid|listid)%%|\{\$(?:contact|subscriber)_?id\}/gi;

/** Whether every hole of a URL is a merge tag for the recipient's id (and there is one): the sender fills it. */
export function recipientTagsOnly(raw: string): boolean {
  if (raw.length > 8192) return false;
  MERGE_TAG.lastIndex = 0;
  if (!MERGE_TAG.test(raw)) return false;
  MERGE_TAG.lastIndex = 0;
  const rest = raw.replace(MERGE_TAG, "x");
  return !/\{\{|\}\}|\*\||%%|\{\$|\$\{|<[A-Za-z]|\[[A-Z]{3}|\{[A-Za-z_]/.test(rest);
}
