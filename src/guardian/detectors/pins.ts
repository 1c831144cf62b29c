import { hash } from "node:crypto";
import { canonicalize } from "../../protocol/canonical.js";
import type { Detection } from "./scan.js";

/** What of a tool the model sees, and so what a pin holds: a change to any of it is a change to the tool. */
export const PINNED_FIELDS = ["name", "title", "description", "inputSchema", "outputSchema", "annotations"] as const;
export type ToolDefinition = Partial<Record<(typeof PINNED_FIELDS)[number], unknown>>;

/** A definition larger than this is pinned by its fingerprint alone (a pins file stays small whatever a server sends). */
const MAX_KEPT_DEFINITION = 64 * 1024;

/** A tool as it was first seen (and so approved), and the definition seen since, when it changed. */
export interface Pin {
  fingerprint: string;
  /** The approved definition, when it was kept (not for pins written before definitions were kept, or too large). */
  definition?: ToolDefinition;
  /** Pins written before annotations were pinned: compared by the fingerprint of the other fields only. */
  legacy?: boolean;
  /** The changed definition waiting for `guardwire pins approve`. */
  pending?: { fingerprint: string; definition?: ToolDefinition };
}

/** Pinned tools, per server. */
export interface PinStore {
  get(server: string, tool: string): Pin | undefined;
  /** Whether any tool of the server is pinned. */
  has(server: string): boolean;
  /** Takes in what other processes changed (a pins file re-read when it changed); called before a tool list is judged. */
  refresh?(): void;
}

/**
 * Where a server's pins are: under `key`, the name the proxy's configuration gives it (`wrap --name`, which `install`
 * writes; else the name wrap derives from the command; a `serve` route's name), never a name the server chooses. Pins
 * files written before pins were keyed so hold them under the name the server reports (`serverInfo.name`): for a key
 * with no pins yet, those are compared, and the first write copies them under the key.
 */
export interface PinScope {
  key: string;
  reported?: string | null;
}

/** The server name whose pins apply, and `from` when they are the ones under the reported name (see PinScope). */
export function pinsFor(pins: PinStore, scope: PinScope): { at: string; from?: string } {
  const r = scope.reported;
  if (r != null && r !== scope.key && !pins.has(scope.key) && pins.has(r)) return { at: r, from: r };
  return { at: scope.key };
}

/**
 * What the guardian should write into its pin store after an evaluation: a tool seen for the first time (`new`), a
 * change to a pinned tool (`changed`: kept as pending until approved), or a pinned tool seen as pinned again
 * (`settled`: a legacy pin gets its definition, a pending change that was taken back is dropped).
 */
export interface NewPin {
  server: string;
  tool: string;
  fingerprint: string;
  definition?: ToolDefinition;
  kind: "new" | "changed" | "settled";
  /** The comparison was with the pins under this (reported) name: they are copied under `server` first. */
  from?: string;
}

export function toolDefinition(tool: Record<string, unknown>): ToolDefinition {
  const out: ToolDefinition = {};
  for (const k of PINNED_FIELDS) if (tool[k] !== undefined) out[k] = tool[k];
  return out;
}

/** A tool's identity as the model sees it: name, title, description, schemas and annotations. */
export function toolFingerprint(tool: Record<string, unknown>): string {
  return digest(toolDefinition(tool));
}

/** The fingerprint pins had before annotations were pinned (equal to the new one for a tool without annotations). */
function legacyFingerprint(tool: Record<string, unknown>): string {
  const { name, title, description, inputSchema, outputSchema } = tool;
  return digest({ name, title, description, inputSchema, outputSchema });
}

function digest(value: unknown): string {
  return hash("sha256", canonicalize(value), "hex");
}

/** A definition worth keeping in a pin, or undefined when it is too large to keep. */
function kept(definition: ToolDefinition): ToolDefinition | undefined {
  return canonicalize(definition).length <= MAX_KEPT_DEFINITION ? definition : undefined;
}

/** Whether a tool is still what its pin says (a version 1 pin was taken without annotations). */
export function pinMatches(pin: Pin, tool: Record<string, unknown>, fingerprint = toolFingerprint(tool)): boolean {
  return pin.legacy ? pin.fingerprint === legacyFingerprint(tool) : pin.fingerprint === fingerprint;
}

/** The fields whose values differ between two definitions, in PINNED_FIELDS order. */
export function changedFields(before: ToolDefinition, after: ToolDefinition): string[] {
  return PINNED_FIELDS.filter((k) => canonicalize(before[k]) !== canonicalize(after[k]));
}

/** What the log and the caller are told about a changed tool: its name, what changed, both digests, how to review. */
export function describeChange(server: string, tool: string, pin: Pin, now: { fingerprint: string; definition?: ToolDefinition }): string {
  const fields = pin.definition && now.definition ? changedFields(pin.definition, now.definition) : [];
  const what = fields.length > 0 ? fields.join(", ") : "definition";
  return `tool "${tool}" of server "${server}" changed (${what}): pinned sha256:${pin.fingerprint.slice(0, 12)}, now sha256:${now.fingerprint.slice(0, 12)}; review with: guardwire pins show ${server} ${tool}`;
}

/**
 * Rug pulls in a tools/list result: a tool whose fingerprint differs from its pin. The finding is the whole tool (so a
 * `redact` takes it out of the list); tools seen for the first time and changes are returned for the guardian to store.
 */
export function detectToolChanges(
  message: Record<string, unknown>,
  scope: PinScope,
  pins: PinStore,
  /** The tools' fingerprints by index, from an earlier message of the same list (list-memo.ts): read, and filled in. */
  fingerprints?: (string | undefined)[],
): { detections: Detection[]; newPins: NewPin[] } {
  const result = message.result as { tools?: unknown } | undefined;
  const detections: Detection[] = [];
  const newPins: NewPin[] = [];
  if (!result || !Array.isArray(result.tools)) return { detections, newPins };
  const server = scope.key;
  const { at, from } = pinsFor(pins, scope);
  const found = (tool: string, fingerprint: string, definition: ToolDefinition, kind: NewPin["kind"]): NewPin =>
    from === undefined ? { server, tool, fingerprint, definition: kept(definition), kind } : { server, tool, fingerprint, definition: kept(definition), kind, from };
  result.tools.forEach((tool: unknown, i: number) => {
    if (tool === null || typeof tool !== "object") return;
    const t = tool as Record<string, unknown>;
    if (typeof t.name !== "string") return;
    // The definition only where it is kept or described: a tool seen as pinned again with a remembered fingerprint
    // needs none.
    let definition: ToolDefinition | undefined;
    let fingerprint = fingerprints?.[i];
    if (fingerprint === undefined) {
      definition = toolDefinition(t);
      fingerprint = digest(definition);
      if (fingerprints !== undefined) fingerprints[i] = fingerprint;
    }
    const pin = pins.get(at, t.name);
    if (pin === undefined) {
      newPins.push(found(t.name, fingerprint, definition ?? toolDefinition(t), "new"));
      return;
    }
    if (pinMatches(pin, t, fingerprint)) {
      // A legacy pin gets its definition; a change that was taken back is no longer pending; pins found under the
      // reported name are copied under the key.
      if (pin.legacy || pin.pending || from !== undefined) newPins.push(found(t.name, fingerprint, definition ?? toolDefinition(t), "settled"));
      return;
    }
    definition ??= toolDefinition(t);
    if (pin.pending?.fingerprint !== fingerprint || from !== undefined) newPins.push(found(t.name, fingerprint, definition, "changed"));
    detections.push({ type: "tool_changed", path: ["result", "tools", i], start: 0, end: 0, whole: true, detail: describeChange(server, t.name, pin, { fingerprint, definition }) });
  });
  return { detections, newPins };
}

/** A call to a tool whose last listing changed it (a change not yet approved): the finding is the tool's name. */
export function detectCallToChangedTool(message: Record<string, unknown>, scope: PinScope, pins: PinStore): Detection[] {
  const params = message.params as { name?: unknown } | undefined;
  if (message.method !== "tools/call" || typeof params?.name !== "string") return [];
  const pin = pins.get(pinsFor(pins, scope).at, params.name);
  if (!pin?.pending) return [];
  const detail = describeChange(scope.key, params.name, pin, pin.pending);
  return [{ type: "tool_changed", path: ["params", "name"], start: 0, end: params.name.length, detail }];
}
