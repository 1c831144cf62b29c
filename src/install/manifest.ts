import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { GuardwireError } from "../errors.js";
import type { ClientConfig, ClientName } from "./clients.js";
import type { Launch } from "./wrap-entry.js";
import { atomicWrite } from "../fs-atomic.js";
import { makeDirs } from "../fs-dirs.js";

/*
 * What install changed, so that uninstall can put it back (`~/.guardwire/installed.json`). Per file: the backup
 * taken before guardwire first changed it and that original's hash, valid for a byte-for-byte restore only while
 * the file is exactly as guardwire last left it; and per entry, the launch it had and the one guardwire wrote.
 */

export interface InstalledEntry {
  serversPath: string[];
  name: string;
  original: Launch;
  wrapped: Launch;
}

export interface InstalledFile {
  client: ClientName;
  format: ClientConfig["format"];
  /** The file as it was before guardwire changed it, while a byte-for-byte restore is still right. */
  restore?: { backup: string; sha256: string };
  /** The hash of the file as guardwire last wrote it. */
  installedSha256: string;
  backups: string[];
  entries: InstalledEntry[];
}

export interface Manifest {
  version: 1;
  files: Record<string, InstalledFile>;
}

export function readManifest(path: string): Manifest {
  if (!existsSync(path)) return { version: 1, files: {} };
  let m: Manifest | undefined;
  try {
    m = JSON.parse(readFileSync(path, "utf8")) as Manifest;
  } catch {
    // reported below
  }
  if (m?.version !== 1 || typeof m.files !== "object" || m.files === null) {
    throw new GuardwireError("CONFIG_INVALID", `${path} is not a guardwire install manifest; move it aside (uninstall then has nothing to restore; the backups are in the folder beside it)`);
  }
  return m;
}

export function writeManifest(path: string, m: Manifest): void {
  const text = JSON.stringify(m, null, 2) + "\n";
  if (existsSync(path)) return atomicWrite(path, text);
  makeDirs(dirname(path), 0o700);
  writeFileSync(path, text, { mode: 0o600 });
}
