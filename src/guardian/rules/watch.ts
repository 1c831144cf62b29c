import { watch, statSync, type FSWatcher } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { loadRules, readRuleSources, type LoadedRules } from "./load.js";

/**
 * Hot reload: watches the rule files named (files or directories) and every file they extend, and on each change
 * loads the whole set again. The caller swaps the new rules in only when they are valid; an invalid edit is reported
 * and the rules in force stay. `files` are the files the rules in force were read from (LoadedRules.files); after
 * each reload the watch follows the files that load read, so a newly extended file is watched too.
 */
export function watchRules(paths: string[], files: string[], onChange: (loaded: LoadedRules) => void, debounceMs = 100): () => void {
  // Editors often save by renaming a new file over the old one: watch directories, not the files' inodes.
  const watchers = new Map<string, { watcher: FSWatcher; names: Set<string> | "all" }>();
  let timer: NodeJS.Timeout | undefined;
  const follow = (read: string[]) => {
    const wanted = new Map<string, Set<string> | "all">();
    for (const p of paths) {
      if (isDirectory(p)) wanted.set(resolve(p), "all");
    }
    for (const f of read) {
      const dir = resolve(dirname(f));
      const names = wanted.get(dir) ?? new Set<string>();
      if (names !== "all") wanted.set(dir, names.add(basename(f)));
    }
    for (const [dir, w] of watchers) {
      if (!wanted.has(dir)) {
        w.watcher.close();
        watchers.delete(dir);
      }
    }
    for (const [dir, names] of wanted) {
      const had = watchers.get(dir);
      if (had) {
        had.names = names;
        continue;
      }
      try {
        const entry = { names, watcher: watch(dir, (_event, file) => changed(entry.names, file)) };
        entry.watcher.unref();
        watchers.set(dir, entry);
      } catch {
        // A directory that does not exist (yet) holds nothing loaded; the load reports the missing file.
      }
    }
  };
  const changed = (names: Set<string> | "all", file: string | null) => {
    if (file !== null && (names === "all" ? !/\.(ya?ml|json)$/.test(file) : !names.has(file))) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(reload, debounceMs);
  };
  const reload = () => {
    timer = undefined;
    let loaded: LoadedRules;
    try {
      loaded = loadRules(paths.flatMap((p) => readRuleSources(p)));
    } catch (e) {
      loaded = { problems: [{ file: paths.join(", "), line: 0, column: 0, path: "", message: `cannot read: ${(e as Error).message}` }], files: [] };
    }
    // An invalid edit may be fixed in any file read so far, old or new: watch them all until the rules load.
    if (loaded.ruleSet) files = loaded.files;
    follow(loaded.ruleSet ? files : [...files, ...loaded.files]);
    onChange(loaded);
  };
  follow(files);
  return () => {
    if (timer) clearTimeout(timer);
    for (const w of watchers.values()) w.watcher.close();
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
