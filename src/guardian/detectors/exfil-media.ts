/*
 * (Tenth round, "fp10") A screen recording, a video or a sound file shared through a file drop (transfer.sh, 0x0.st, file.io)
 * because the user asked: `curl --upload-file ./demo-recording.mp4 https://transfer.sh/demo-recording.mp4`.
 *
 * What an attack sends to a file drop is what is worth stealing: keys and credential folders, `.env` files, database
 * dumps, spreadsheets and exports, archives of folders, whatever a pipe feeds in. A media file holds none of them, and
 * it is what people share this way (pictures are not counted: a photo may be of a passport). The guard is narrow:
 *   - the command line is the upload alone: one curl or wget, nothing piped into it, no `;`, `&&`, `||`, no command
 *     substitution (a line that made the file first, a screenshot or a recording of the screen, is not the user's share);
 *   - every file it sends (`-T`/`--upload-file FILE`, `-F name=@FILE`, `--data-binary @FILE`, `--post-file FILE`)
 *     is a media file by its extension, not in a hidden folder, not standard input;
 *   - an upload tool's file argument is a media file (the same test).
 */

/**
 * Recordings: video and sound. Pictures are not here: a photo or a scan may be of a passport or a card, and a
 * screenshot of whatever was on screen.
 */
const MEDIA = /\.(?:mp4|m4v|mov|webm|mkv|avi|mp3|m4a|wav|flac|ogg|opus|aac)$/i;

/** A path to a media file: by its extension, not standard input, not in a hidden folder, no variable or substitution. */
export function mediaFile(path: string): boolean {
  const p = path.trim().replace(/^["']|["']$/g, "");
  if (p === "" || p === "-" || p.length > 512 || /[$`*?]/.test(p)) return false;
  if (p.split(/[/\\]/).some((s) => s.length > 1 && s.startsWith(".") && s !== "..")) return false;
  return MEDIA.test(p);
}

const CHAINED = /[|;&`\n]|\$\(|<\(|>\(/;
/** Options whose value is a file sent as it is, and options whose value may name a file with `@` (or `<` for -F). */
const FILE_OPTIONS = new Set(["-T", "--upload-file", "--post-file", "--body-file"]);
const AT_OPTIONS = new Set(["-F", "--form", "-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--data-ascii"]);

/** Whether a command line is one curl or wget that sends media files and nothing else (see above). */
export function mediaUploadOnly(line: string): boolean {
  if (line.length > 2048 || CHAINED.test(line)) return false;
  const words = line.trim().split(/\s+/);
  const name = (words[0] ?? "").replace(/^.*\//, "");
  if (name !== "curl" && name !== "wget") return false;
  let files = 0;
  for (let i = 1; i < words.length; i++) {
    const w = words[i] as string;
    const eq = w.startsWith("--") ? w.indexOf("=") : -1;
    const opt = eq > 0 ? w.slice(0, eq) : w;
    const glued = !w.startsWith("--") && /^-[TFd]./.test(w) ? w.slice(2) : null;
    const option = glued !== null ? w.slice(0, 2) : opt;
    const value = glued ?? (eq > 0 ? w.slice(eq + 1) : FILE_OPTIONS.has(opt) || AT_OPTIONS.has(opt) ? (words[++i] ?? "") : null);
    if (value === null) continue;
    if (FILE_OPTIONS.has(option)) {
      if (!mediaFile(value)) return false;
      files++;
    } else if (AT_OPTIONS.has(option)) {
      const v = value.replace(/^["']|["']$/g, "");
      const at = v.search(/[@<]/);
      if (at < 0) return false; // a payload spelled out on the line is not a media file
      if (!mediaFile(v.slice(at + 1).replace(/;.*$/, ""))) return false;
      files++;
    }
  }
  return files > 0;
}
