import { homedir } from "node:os";
import { join } from "node:path";
import { ChainGuardian } from "../guardian/chain.js";
import { EmbeddedGuardian } from "../guardian/embedded.js";
import type { Guardian } from "../guardian/guardian.js";
import { RemoteGuardian } from "../guardian/remote.js";
import { formatProblem } from "../guardian/rules/load.js";
import { watchRules } from "../guardian/rules/watch.js";
import { PinFile } from "../guardian/state.js";
import { loadRulesAndFiles, rulesOrDefault } from "./rules.js";

export const DEFAULT_PINS = join(homedir(), ".guardwire", "pins.json");

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

/** Builds the guardian a command uses, with hot reload of its rules; reports to `err`. */
export function buildGuardian(o: GuardianOptions, err: NodeJS.WritableStream): { guardian: Guardian; embedded: EmbeddedGuardian; close: () => void } {
  const { ruleSet, files } = loadRulesAndFiles(o.rules);
  const pins = new PinFile(o.pins ?? DEFAULT_PINS);
  if (pins.problem) err.write(`guardwire: ${pins.problem}\n`);
  const embedded = new EmbeddedGuardian(ruleSet, { failOpen: o.failMode === "open", pins });
  let stop = () => {};
  if (o.watch !== false) {
    stop = watchRules(rulesOrDefault(o.rules), files, (loaded) => {
      if (loaded.ruleSet) {
        embedded.setRules(loaded.ruleSet);
        err.write(`guardwire: rules reloaded: ${loaded.ruleSet.rules.length} rules, hash ${loaded.ruleSet.hash}\n`);
      } else {
        err.write(`guardwire: rules NOT reloaded, the previous rules stay in force:\n${loaded.problems.map((p) => "  " + formatProblem(p)).join("\n")}\n`);
      }
    });
  }
  const headers = headerOptions(o.guardianHeader);
  const remotes = [
    ...(o.guardian ?? []).map((url) => new RemoteGuardian({ url, timeoutMs: o.guardianTimeoutMs, headers })),
    ...(o.remotes ?? []).map((r) => new RemoteGuardian(r)),
  ];
  const guardian: Guardian = remotes.length > 0 ? new ChainGuardian([embedded, ...remotes]) : embedded;
  return { guardian, embedded, close: stop };
}
