import { compileUrlParams, detectDangerousCommand, detectPii, detectSecrets, detectSensitivePath, detectUrls, PII_TYPES, type UrlParams } from "./content.js";
import { detectInjection, detectPoisoning, type InjectionParams } from "./injection.js";
import { detectSecretAssignments } from "./assignments.js";
import { compileExfiltrationParams, detectExfiltration, type ExfiltrationParams } from "./exfiltration.js";
import { detectCallToChangedTool, detectToolChanges, type NewPin, type PinScope, type PinStore } from "./pins.js";
import { normalize, type NormalText } from "./normalize.js";
import { collectStrings, joinStrings, type Detection, type StringSite } from "./scan.js";

export type { Detection } from "./scan.js";

export const DETECTOR_NAMES = [
  "secrets",
  "secret_assignment",
  "exfiltration",
  "pii",
  ...PII_TYPES,
  "prompt_injection",
  "tool_poisoning",
  "tool_changed",
  "sensitive_path",
  "dangerous_command",
  "url",
] as const;

/** A detector as a rule names it, compiled once: a cache key and how to run it over a message. */
export interface CompiledDetector {
  key: string;
  run(scan: MessageScan): Detection[];
}

export type DetectorSpec = string | { url: UrlParams } | { exfiltration: ExfiltrationParams } | { prompt_injection: InjectionParams } | { tool_poisoning: InjectionParams };

export function compileDetector(spec: DetectorSpec): CompiledDetector | string {
  if (typeof spec !== "string") {
    if ("prompt_injection" in spec) {
      const p = spec.prompt_injection;
      return { key: "prompt_injection:" + JSON.stringify(p), run: (s) => detectInjection(s.injectionInput, p) };
    }
    if ("tool_poisoning" in spec) {
      const p = spec.tool_poisoning;
      return { key: "tool_poisoning:" + JSON.stringify(p), run: (s) => detectPoisoning(s.injectionInput, p) };
    }
    if ("exfiltration" in spec) {
      const allow = compileExfiltrationParams(spec.exfiltration);
      return { key: "exfiltration:" + JSON.stringify(spec.exfiltration), run: (s) => detectExfiltration(s.strings, allow) };
    }
    const lists = compileUrlParams(spec.url);
    return { key: "url:" + JSON.stringify(spec.url), run: (s) => detectUrls(s.strings, lists) };
  }
  switch (spec) {
    case "secrets":
      return { key: spec, run: (s) => detectSecrets(s.strings) };
    case "secret_assignment":
      return { key: spec, run: (s) => detectSecretAssignments(s.strings) };
    case "exfiltration": {
      const allow = compileExfiltrationParams({});
      return { key: spec, run: (s) => detectExfiltration(s.strings, allow) };
    }
    case "pii":
      return { key: spec, run: (s) => detectPii(s.strings) };
    case "prompt_injection":
      return { key: spec, run: (s) => detectInjection(s.injectionInput) };
    case "tool_poisoning":
      return { key: spec, run: (s) => detectPoisoning(s.injectionInput) };
    case "tool_changed":
      return { key: spec, run: (s) => s.toolChanges().detections };
    case "sensitive_path":
      return { key: spec, run: (s) => detectSensitivePath(s.strings) };
    case "dangerous_command":
      return { key: spec, run: (s) => detectDangerousCommand(s.strings) };
    case "url":
      return "the url detector needs its lists: { url: { deny: [...], allow: [...] } }";
    default:
      if ((PII_TYPES as string[]).includes(spec)) return { key: spec, run: (s) => detectPii(s.strings, spec) };
      return `unknown detector "${spec}" (known: ${DETECTOR_NAMES.join(", ")})`;
  }
}

/**
 * One message as the detectors see it: its strings collected once, each detector run at most once and only when a
 * rule that matches the message asks for it.
 */
export class MessageScan {
  private sites: StringSite[] | undefined;
  private readonly results = new Map<string, Detection[]>();
  private changes: { detections: Detection[]; newPins: NewPin[] } | undefined;

  constructor(
    readonly message: Record<string, unknown>,
    /** Whose pins `tool_changed` compares with (a name alone: the key). */
    server: PinScope | string,
    private readonly pins: PinStore | null,
  ) {
    this.scope = typeof server === "string" ? { key: server } : server;
  }

  private readonly scope: PinScope;

  get strings(): StringSite[] {
    this.sites ??= collectStrings(this.message);
    return this.sites;
  }

  /** All the message's text, as `text` in rules: the same strings the detectors scan. */
  get text(): string {
    this.joined ??= this.sites ? this.sites.map((s) => s.value).join("\n") : joinStrings(this.message);
    return this.joined;
  }

  private joined: string | undefined;

  /**
   * Only the text parts (strings under a `text` key): A2A's `text` in rules — the words of messages, task history,
   * status messages and artifacts, without ids, kinds and roles.
   */
  get partsText(): string {
    this.parts ??= this.strings
      .filter((s) => s.path[s.path.length - 1] === "text")
      .map((s) => s.value)
      .join("\n");
    return this.parts;
  }

  private parts: string | undefined;

  /** A string of this message as the detectors read it (normalize.ts), made once per string. */
  normal(site: StringSite): NormalText {
    let n = this.normals.get(site);
    if (!n) {
      n = normalize(site.value);
      this.normals.set(site, n);
    }
    return n;
  }

  private readonly normals = new Map<StringSite, NormalText>();

  /** What the injection scorer reads: the strings, the message (for where each sits) and their normal forms. */
  get injectionInput(): { sites: StringSite[]; message: Record<string, unknown>; normal: (site: StringSite) => NormalText } {
    return { sites: this.strings, message: this.message, normal: (site) => this.normal(site) };
  }

  run(detector: CompiledDetector): Detection[] {
    let found = this.results.get(detector.key);
    if (!found) {
      found = detector.run(this);
      this.results.set(detector.key, found);
    }
    return found;
  }

  /** Rug pulls: changed tools in a tools/list result, or a call to a tool whose change is not approved yet. */
  toolChanges(): { detections: Detection[]; newPins: NewPin[] } {
    if (!this.changes) {
      const pins = this.pins;
      if (pins === null) this.changes = { detections: [], newPins: [] };
      else if (this.message.method === "tools/call") this.changes = { detections: detectCallToChangedTool(this.message, this.scope, pins), newPins: [] };
      else this.changes = detectToolChanges(this.message, this.scope, pins);
    }
    return this.changes;
  }

  /** Tools seen for the first time by a tool_changed check, to be pinned by the guardian. */
  get newPins(): NewPin[] {
    return this.changes?.newPins ?? [];
  }
}
