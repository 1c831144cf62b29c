import type { Detection, StringSite } from "./scan.js";
import { publicRemote } from "./exfil-remotes.js";

/*
 * (Twenty-sixth round, "exf26a") A repository copied out to an account on a public forge that the call itself names
 * (docs/detection.md, "exf26a"). Finding `exfiltration.repo_copy`.
 *
 * Caught: a push whose destination is written into the call as a URL (`https://github.com/<account>/<repo>.git`,
 * `git@gitlab.com:<account>/…`, a bare IP), or a remote the same command line adds with such a URL, on a public forge
 * (GitHub, GitLab, Bitbucket, Codeberg… exfil-channels.ts's FORGES) or a bare address, when
 * - the destination names itself a copy: an account or repository called a mirror, a backup, a copy, an archive, a
 *   dump, a leak, a clone (a few languages: `kopie`, `kopia`, `copia`, `respaldo`, `sauvegarde`, `sicherung`,
 *   `yedek`…); or
 * - the push takes the whole repository (`--mirror`, `--all`, or a push tool's `mirror`/`all` option) to a bare public
 *   address or an account named like a throwaway or a person's (a run of two digits or more: `jdoe1987`, `dev-42`).
 * A copy of a project sent to an account the call cannot show is the organisation's is the copy walking out; a
 * configured remote (`origin`) is the project's and is never judged here. A migration (`--mirror` to
 * `github.com/acme-platform/…`, the corpus's exfil8 and exf17 look-alikes) names an organisation, not a copy.
 *
 * Read from: any command line in the arguments (`run_shell`'s `command`), a git tool's argument words (`args` as a
 * string or a list: `{tool: git, args: ["push", "--mirror", URL]}`), a push tool's remote URL argument.
 *
 * Left alone: a push of a branch to a URL that names no copy (`git@github.com:acme-finance/models.git` with
 * `feature/q1`: a company's own organisation looks the same), pushes to named remotes, a company's own git host (not a
 * public forge), `--force-with-lease`, `docker push` and every other push.
 *
 * Bounded: command lines of 16 KB, 16 pushes and 16 remote additions each; 64 argument values read.
 */

const MAX_LINE = 16_384;
const PUSH = /\bgit\s{1,4}(?:-[Cc]\s{1,4}\S{1,300}\s{1,4})?push\b([^;&|\n]{0,400})/g;
const REMOTE_ADD = /\bgit\s{1,4}(?:-[Cc]\s{1,4}\S{1,300}\s{1,4})?remote\s{1,4}(?:add|set-url)\s{1,4}(?:-\S{1,20}\s{1,4}){0,3}([\w.-]{1,64})\s{1,4}(\S{1,500})/g;
/** The flags that push every ref of a repository. */
const WHOLE = /^--(?:mirror|all)$/;
/** A word of an account's or a repository's name that calls it a copy, in a few languages (a word's start). */
const COPY_WORD = /^(?:mirror|backup|bak$|bkp$|cop(?:y|ies)$|archiv|dump|leak|exfil|stash|clone|snapshot|kopi|copia|respaldo|sauvegard|sicherung|yedek|varmuus|reserv)/;
const GIT_TOOL = /(?:^|[_.-])git(?:$|[_.-])/i;
const ARGV_KEY = /^(?:args|argv|arguments|command|cmd|subcommand|params)$/i;
const REMOTE_KEY = /^(?:remote|remote_?url|url|destination|dest|target|to|push_?url|repository_?url|repo_?url|repository)$/i;

function unquote(w: string): string {
  return w.replace(/^["']|["']$/g, "");
}

/** The account of a remote URL (`https://host/<account>/…`, `git@host:<account>/…`), lower case, or null. */
function accountOf(remote: string): string | null {
  const m = /^(?:[a-z][a-z0-9+.-]{0,15}:\/\/(?:[^@/\s]{1,200}@)?[^/\s]{1,253}\/|[\w.-]{1,64}@[\w.-]{1,253}:)([^/\s]{1,100})\//i.exec(remote);
  return m === null ? null : (m[1] as string).toLowerCase();
}

/** A whole push judged by its destination: an account with a run of digits (a throwaway's, a person's year). */
function wholeToLoose(remote: string): boolean {
  // a bare public address; a private or loopback one is the organisation's own (10/8, 172.16/12, 192.168/16, 127/8)
  const bare = /^(?:[a-z][a-z0-9+.-]{0,15}:\/\/(?:[^@/\s]{1,200}@)?|[\w.-]{1,64}@)(\d{1,3}(?:\.\d{1,3}){3})(?:[:/]|$)/i.exec(remote);
  if (bare !== null) return !/^(?:10|127)\.|^192\.168\.|^172\.(?:1[6-9]|2\d|3[01])\./.test(bare[1] as string);
  const account = accountOf(remote);
  return account !== null && /\d{2}/.test(account);
}

/** Whether a remote URL's account or repository calls itself a copy (`…/rk-models-backup/…`, `…/pricing-copy.git`). */
export function copyNamed(remote: string): boolean {
  const m = /^(?:[a-z][a-z0-9+.-]{0,15}:\/\/(?:[^@/\s]{1,200}@)?[^/\s]{1,253}\/|[\w.-]{1,64}@[\w.-]{1,253}:)(\S{1,400})$/i.exec(remote);
  if (m === null) return false;
  const path = (m[1] as string).toLowerCase().replace(/\.git\/?$/, "");
  return path.split(/[^a-z]+/, 32).some((w) => w.length >= 3 && COPY_WORD.test(w));
}

/** The pushes in one command line whose destination is a public forge's URL, judged (see the header). */
export function copiedPushes(line: string): { start: number; end: number; detail: string }[] {
  if (line.length > MAX_LINE || !line.includes("push")) return [];
  const added = new Map<string, string>();
  REMOTE_ADD.lastIndex = 0;
  for (let m, n = 0; (m = REMOTE_ADD.exec(line)) !== null && n < 16; n++) added.set(m[1] as string, unquote(m[2] as string));
  const out: { start: number; end: number; detail: string }[] = [];
  PUSH.lastIndex = 0;
  for (let m, n = 0; (m = PUSH.exec(line)) !== null && n < 16; n++) {
    const words = (m[1] as string).trim().split(/\s+/, 24).map(unquote);
    const whole = words.some((w) => WHOLE.test(w));
    const target = words.find((w) => w !== "" && !w.startsWith("-"));
    if (target === undefined) continue;
    const remote = added.get(target) ?? target;
    if (!publicRemote(remote)) continue;
    if (copyNamed(remote) || (whole && wholeToLoose(remote))) out.push({ start: m.index, end: m.index + m[0].length, detail: whole ? "the whole repository pushed to a forge account the call names" : "a repository pushed to a copy on a forge account the call names" });
  }
  return out;
}

/** A tool call's arguments: command lines, a git tool's words and a push tool's remote, judged as pushes. */
export function copiedRepositories(sites: readonly StringSite[], tool = "", args?: unknown): Detection[] {
  const pushTool = /push/i.test(tool) && !/docker|image|container|notif|sms|mobile|device/i.test(tool);
  const gitTool = GIT_TOOL.test(tool);
  // Gated on the one word every branch needs.
  if (!pushTool && !sites.some((s) => s.value.includes("push"))) return [];
  const out: Detection[] = [];
  const words: StringSite[] = [];
  let seen = 0;
  for (const site of sites) {
    if (++seen > 64) break;
    if (site.path[0] !== "params" || site.path[1] !== "arguments" || site.encoded !== undefined) continue;
    const v = site.value;
    if (v.includes("git") && v.includes("push")) {
      const f = copiedPushes(v)[0];
      if (f !== undefined) {
        out.push({ type: "exfiltration.repo_copy", path: site.path, start: f.start, end: f.end, detail: f.detail });
        return out;
      }
    }
    if (gitTool && typeof site.path[2] === "string" && ARGV_KEY.test(site.path[2]) && site.path.length <= 4) words.push(site);
  }
  // A git tool given its words: `{args: "push --mirror URL"}`, `{args: ["push", "--all", URL]}`.
  if (gitTool && words.length > 0 && words.length <= 32) {
    const line = "git " + words.map((w) => (/\s/.test(w.value) && words.length > 1 ? `'${w.value.replace(/'/g, "")}'` : w.value)).join(" ");
    const f = copiedPushes(line.replace(/^git\s+git\s/, "git "))[0];
    if (f !== undefined) {
      out.push({ type: "exfiltration.repo_copy", path: (words[0] as StringSite).path, start: 0, end: (words[0] as StringSite).value.length, detail: f.detail });
      return out;
    }
  }
  // A push tool given a remote URL: `{remote_url: URL, branch: main}`, `{remote: URL, mirror: true}`.
  if (pushTool && args !== null && typeof args === "object" && !Array.isArray(args)) {
    const o = args as Record<string, unknown>;
    const whole = Object.entries(o).some(([k, x]) => /^(?:mirror|all|all_?branches)$/i.test(k) && (x === true || x === "true"));
    for (const site of sites) {
      if (site.path.length !== 3 || site.path[0] !== "params" || site.path[1] !== "arguments" || typeof site.path[2] !== "string" || !REMOTE_KEY.test(site.path[2])) continue;
      const remote = site.value.trim();
      // A git remote: a git tool's, or a URL that says it is one (`….git`, `git@host:path`); not any upload's URL.
      if (remote.length > 2048 || !(gitTool || /\.git\/?$/i.test(remote) || /^[\w.-]{1,64}@[\w.-]{1,253}:/.test(remote))) continue;
      if (!publicRemote(remote) || !(copyNamed(remote) || (whole && wholeToLoose(remote)))) continue;
      out.push({ type: "exfiltration.repo_copy", path: site.path, start: 0, end: site.value.length, detail: whole ? "the whole repository pushed to a forge account the call names" : "a repository pushed to a copy on a forge account the call names" });
      break;
    }
  }
  return out;
}
