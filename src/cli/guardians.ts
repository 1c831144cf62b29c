import { ChainGuardian } from "../guardian/chain.js";
import { EmbeddedGuardian, type AnyEmbeddedGuardian } from "../guardian/embedded.js";
import type { Guardian } from "../guardian/guardian.js";
import { RemoteGuardian } from "../guardian/remote.js";
import { formatProblem, type LoadedRules } from "../guardian/rules/load.js";
import { watchRules } from "../guardian/rules/watch.js";
import { PinFile, type SharedState } from "../guardian/state.js";
import type { RulesControl, RulesReload } from "../admin/rules-api.js";
import { loadRulesAndFiles, readAndLoadRules, rulesOrDefault } from "./rules.js";
import { thisProcess } from "./startup.js";
import { DEFAULT_PINS } from "./options.js";

export { DEFAULT_PINS };

export interface GuardianOptions {
  /** Rule files, directories or shipped packs, loaded in this order as one set (docs/rules.md, Layering). */
  rules?: string | string[];
  failMode: "closed" | "open";
  pins?: string;
  /** Remote AOS guardians run after the embedded one (a chain). */
  guardian?: string[];
  guardianTimeoutMs?: number;
  guardianHeader?: string[];
  /** Remote guardians with their own settings (from a serve config), after `guardian`. */
  remotes?: { url: string; timeoutMs: number; headers?: Record<string, string> }[];
  watch?: boolean;
  /** Labels, counts, limit windows and pins shared with other replicas (serve with `store:`); `pins` is then unused. */
  shared?: SharedState;
}

/** `--…-header 'Name: value'` options as a header object. */
export function headerOptions(list: string[] | undefined): Record<string, string> {
  return Object.fromEntries(
    (list ?? []).map((h) => {
      const i = h.indexOf(":");
      return [h.slice(0, i).trim(), h.slice(i + 1).trim()];
    }),
  );
}

/** Builds the guardian a command uses, with hot reload of its rules (file changes, and the console's reload); reports to `err`. */
export function buildGuardian(
  o: GuardianOptions,
  err: NodeJS.WritableStream,
): { guardian: Guardian; embedded: AnyEmbeddedGuardian; rules: RulesControl; close: () => Promise<void> } {
  const { ruleSet, files } = loadRulesAndFiles(o.rules);
  const failOpen = o.failMode === "open";
  let embedded: AnyEmbeddedGuardian;
  let pins: PinFile | undefined;
  if (o.shared) {
    embedded = EmbeddedGuardian.withStore(ruleSet, o.shared, { failOpen });
  } else {
    pins = new PinFile(o.pins ?? DEFAULT_PINS, { owner: thisProcess, onError: (m) => err.write(`guardwire: ${m}\n`) });
    if (pins.problem) err.write(`guardwire: ${pins.problem}\n`);
    embedded = new EmbeddedGuardian(ruleSet, { failOpen, pins });
  }
  const paths = rulesOrDefault(o.rules);
  let last: RulesReload = { at: new Date().toISOString(), by: "start", ok: true, rules: ruleSet.rules.length, hash: ruleSet.hash };
  // One way in for every reload: the new rules are swapped in only when the whole set loads; otherwise the old stay.
  const apply = (loaded: LoadedRules, by: RulesReload["by"]): RulesReload => {
    const at = new Date().toISOString();
    if (loaded.ruleSet) {
      embedded.setRules(loaded.ruleSet);
      err.write(`guardwire: rules reloaded: ${loaded.ruleSet.rules.length} rules, hash ${loaded.ruleSet.hash}\n`);
      last = { at, by, ok: true, rules: loaded.ruleSet.rules.length, hash: loaded.ruleSet.hash };
    } else {
      const problems = loaded.problems.map((p) => formatProblem(p));
      err.write(`guardwire: rules NOT reloaded, the previous rules stay in force:\n${problems.map((p) => "  " + p).join("\n")}\n`);
      last = { at, by, ok: false, problems };
    }
    return last;
  };
  const rules: RulesControl = {
    paths,
    current: () => embedded.rules,
    last: () => last,
    reload: () => {
      try {
        return apply(readAndLoadRules(paths), "console");
      } catch (e) {
        return apply({ problems: [{ file: paths.join(", "), line: 0, column: 0, path: "", message: (e as Error).message }], files: [] }, "console");
      }
    },
  };
  let stop = () => {};
  if (o.watch !== false) stop = watchRules(paths, files, (loaded) => void apply(loaded, "watch"));
  const headers = headerOptions(o.guardianHeader);
  const remotes = [
    ...(o.guardian ?? []).map((url) => new RemoteGuardian({ url, timeoutMs: o.guardianTimeoutMs, headers })),
    ...(o.remotes ?? []).map((r) => new RemoteGuardian(r)),
  ];
  const guardian: Guardian = remotes.length > 0 ? new ChainGuardian([embedded, ...remotes]) : embedded;
  // Pins seen last are saved before the process ends.
  const close = async () => {
    stop();
    await pins?.flush();
    pins?.close();
  };
  return { guardian, embedded, rules, close };
}
