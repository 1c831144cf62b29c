import { watch, statSync, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import { loadRules, readRuleSources, type LoadedRules } from "./load.js";

/**
 * Hot reload: watches a rule file (or directory), and on each change loads the whole set again. The caller swaps the
 * new rules in only when they are valid; an invalid edit is reported and the rules in force stay.
 */
export function watchRules(path: string, onChange: (loaded: LoadedRules) => void, debounceMs = 100): () => void {
  const isDir = statSync(path).isDirectory();
  // Editors often save by renaming a new file over the old one: watch the directory, not the file's inode.
  const dir = isDir ? path : dirname(path);
  const name = isDir ? null : basename(path);
  let timer: NodeJS.Timeout | undefined;
  const reload = () => {
    timer = undefined;
    let loaded: LoadedRules;
    try {
      loaded = loadRules(readRuleSources(path));
    } catch (e) {
      loaded = { problems: [{ file: path, line: 0, column: 0, path: "", message: `cannot read: ${(e as Error).message}` }] };
    }
    onChange(loaded);
  };
  const watcher: FSWatcher = watch(dir, (_event, file) => {
    if (name !== null && file !== null && file !== name) return;
    if (isDir && file !== null && !/\.(ya?ml|json)$/.test(file)) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(reload, debounceMs);
  });
  watcher.unref();
  return () => {
    if (timer) clearTimeout(timer);
    watcher.close();
  };
}
