import { randomBytes } from "node:crypto";
import { closeSync, fchmodSync, fsyncSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export interface AtomicWriteOptions {
  /** The new file's mode, exactly (whatever the umask); default: 0o666 less the umask, as a plain write. */
  mode?: number;
}

export interface AsyncAtomicWriteOptions extends AtomicWriteOptions {
  /**
   * Asked once the new content is on disk beside `path`: false leaves `path` as it is (the write is dropped). The
   * check and the rename then happen in one turn of the event loop, so nothing this process writes to `path`
   * synchronously in between can be replaced by older content.
   */
  replaceIf?: () => boolean;
}

/** A temporary name beside `path`, unique to this write: two writers never share a temporary file. */
const tempFor = (path: string) => join(dirname(path), `.${basename(path)}.guardwire-${randomBytes(6).toString("hex")}.tmp`);

const bytes = (data: string | Uint8Array) => (typeof data === "string" ? Buffer.from(data) : data);

/**
 * Replaces `path` with `data` so that, after a crash at any point, the file is either its old content or its new
 * content, whole: the data is written to a temporary file of its own in the same directory and fsynced, renamed over
 * `path`, and the directory is fsynced so that the rename itself is on disk. The directory must exist.
 */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): void {
  const tmp = tempFor(path);
  const fd = openSync(tmp, "wx", opts.mode ?? 0o666);
  try {
    if (opts.mode !== undefined) fchmodSync(fd, opts.mode);
    const buf = bytes(data);
    for (let at = 0; at < buf.byteLength; ) at += writeSync(fd, buf, at);
    fsyncSync(fd);
    closeSync(fd);
  } catch (e) {
    closeQuietly(fd);
    unlinkQuietly(tmp);
    throw e;
  }
  try {
    renameSync(tmp, path);
  } catch (e) {
    unlinkQuietly(tmp);
    throw e;
  }
  syncDirSync(dirname(path));
}

/** `writeFileAtomicSync` off the event loop: the writes and fsyncs run on libuv's threads. False: `replaceIf` said no. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, opts: AsyncAtomicWriteOptions = {}): Promise<boolean> {
  const tmp = tempFor(path);
  const file = await open(tmp, "wx", opts.mode ?? 0o666);
  try {
    if (opts.mode !== undefined) await file.chmod(opts.mode);
    await file.writeFile(bytes(data));
    await file.sync();
    await file.close();
  } catch (e) {
    await file.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw e;
  }
  try {
    if (!opts.replaceIf) await rename(tmp, path);
    else if (opts.replaceIf()) renameSync(tmp, path);
    else {
      await unlink(tmp).catch(() => {});
      return false;
    }
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw e;
  }
  let dir;
  try {
    dir = await open(dirname(path), "r");
    await dir.sync();
  } catch (e) {
    if (!dirSyncUnsupported(e)) throw e;
  } finally {
    await dir?.close().catch(() => {});
  }
  return true;
}

/** Makes a rename or a new entry in `dir` durable. */
export function syncDirSync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch (e) {
    if (!dirSyncUnsupported(e)) throw e;
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

/** Windows cannot open or fsync a directory (its renames are durable without it); some filesystems refuse the fsync. */
function dirSyncUnsupported(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === "EISDIR" || code === "EPERM" || code === "EACCES" || code === "EINVAL" || code === "ENOTSUP";
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // never made, or gone
  }
}

/**
 * Replaces `file` with `text` atomically and durably (`writeFileAtomicSync`), with the original's mode. A reader sees the
 * old file or the new one, never half of one. A symlink (a dotfiles repository) stays a symlink: its target is the
 * file replaced.
 */
export function atomicWrite(link: string, text: string | Buffer): void {
  const file = realpathSync(link);
  writeFileAtomicSync(file, text, { mode: statSync(file).mode & 0o7777 });
}
