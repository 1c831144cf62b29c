import { diffLines } from "diff";
import { GuardwireError } from "../errors.js";
import { PINNED_FIELDS, type Pin, type ToolDefinition } from "../guardian/detectors/pins.js";
import { PinFile } from "../guardian/state.js";
import { loadConfig } from "../config/load.js";
import { formatFileProblem } from "../yaml.js";
import { thisProcess } from "./startup.js";

type Out = { write(s: string): unknown };

/** What the pins command works on: a pins file, or the pins a store-backed `serve` shares in Redis. */
interface Pins {
  problem?: string;
  get(server: string, tool: string): Pin | undefined;
  all(): Record<string, Record<string, Pin>>;
  reset(server?: string): number | Promise<number>;
  approve(server: string, tool: string): boolean | Promise<boolean>;
}

/**
 * `guardwire pins list | reset [server] | show SERVER TOOL | approve SERVER TOOL`. An approval or a reset is made to
 * the file as it is when written, under its lock, so pins other processes write meanwhile are kept.
 */
export async function runPins(action: string, args: string[], file: string, out: Out, err: Out): Promise<void> {
  const pins = new PinFile(file, { owner: thisProcess });
  try {
    await pinsAction(pins, action, args, out, err);
  } finally {
    pins.close();
  }
}

/**
 * `guardwire pins --config serve.yaml …`: the same actions on the pins the replicas of a store-backed `serve` share in
 * Redis (docs/scale.md); an approval or a reset reaches every replica at once.
 */
export async function runSharedPins(action: string, args: string[], configPath: string, out: Out, err: Out): Promise<void> {
  const { config, problems } = loadConfig(configPath, process.env);
  if (!config) throw new GuardwireError("CONFIG_INVALID", `${configPath} is not a valid configuration:\n${problems.map((p) => "  " + formatFileProblem(p)).join("\n")}`);
  if (!config.store) throw new GuardwireError("USAGE", `${configPath} has no store: its pins are in a pins file (guardwire pins --pins FILE)`);
  const { SharedStore } = await import("../store/redis.js");
  const { SharedPins } = await import("../store/guardian-pins.js");
  const store = new SharedStore(config.store);
  try {
    const up = await new Promise<boolean>((resolve) => {
      const t = setTimeout(() => resolve(false), Math.max(3000, config.store?.timeoutMs ?? 0));
      store.onState((s) => s.state === "up" && (clearTimeout(t), resolve(true)));
    });
    if (!up) throw new GuardwireError("STORE_UNAVAILABLE", `cannot reach Redis at ${store.state.url}: ${store.state.lastError ?? "no answer"}`);
    const pins = new SharedPins(store);
    await pins.load();
    await pinsAction(pins, action, args, out, err);
  } finally {
    await store.close();
  }
}

function pinsAction(pins: Pins, action: string, args: string[], out: Out, err: Out): void | Promise<void> {
  if (pins.problem) err.write(`guardwire: ${pins.problem}\n`);
  const [server, tool] = args;
  const needTool = () => {
    if (server === undefined || tool === undefined) throw new GuardwireError("USAGE", `pins ${action} needs a server and a tool: guardwire pins ${action} SERVER TOOL`);
    const pin = pins.get(server, tool);
    if (!pin) throw new GuardwireError("USAGE", `no pin for tool "${tool}" of server "${server}" (guardwire pins list shows them)`);
    return { server, tool, pin };
  };
  switch (action) {
    case "list":
      for (const [srv, tools] of Object.entries(pins.all())) {
        for (const [name, pin] of Object.entries(tools)) out.write(`${srv}\t${name}\t${pin.fingerprint.slice(0, 16)}${pin.pending ? "\tCHANGED (guardwire pins show)" : ""}\n`);
      }
      return;
    case "reset":
      return after(pins.reset(server), (n) => {
        out.write(`reset ${n} pin${n === 1 ? "" : "s"}${server ? ` of ${server}` : ""}; tools are pinned again when next listed\n`);
      });
    case "show": {
      const t = needTool();
      out.write(showPin(t.server, t.tool, t.pin));
      return;
    }
    case "approve": {
      const t = needTool();
      return after(pins.approve(t.server, t.tool), (approved) => {
        if (!approved) throw new GuardwireError("USAGE", `tool "${t.tool}" of server "${t.server}" has no change waiting for approval`);
        out.write(`approved the new definition of "${t.tool}" (${t.server}): sha256:${t.pin.pending?.fingerprint.slice(0, 12)}; it is listed again from the next tools/list\n`);
      });
    }
    default:
      throw new GuardwireError("USAGE", `unknown pins action "${action}" (list, reset, show or approve)`);
  }
}

/** `then` for a value that is a promise only with a store: the pins file stays synchronous. */
function after<T>(value: T | Promise<T>, then: (v: T) => void): void | Promise<void> {
  return value instanceof Promise ? value.then(then) : then(value);
}

/** The pinned definition against the changed one, field by field, as a line diff of each field's JSON. */
export function showPin(server: string, tool: string, pin: Pin): string {
  const head = `${server} ${tool}\npinned  sha256:${pin.fingerprint}\n`;
  if (!pin.pending) return `${head}no change since it was pinned\n${pin.definition ? render("definition", pin.definition) : ""}`;
  let text = `${head}now     sha256:${pin.pending.fingerprint}  (not approved: calls are refused; guardwire pins approve ${server} ${tool})\n`;
  if (!pin.definition || !pin.pending.definition) {
    const why = !pin.definition ? "the pinned definition was not kept (pinned by an older guardwire, or too large)" : "the new definition is too large to keep";
    return `${text}${why}; the fingerprints differ\n${pin.pending.definition ? render("now", pin.pending.definition) : ""}`;
  }
  for (const field of PINNED_FIELDS) {
    const before = json(pin.definition[field]);
    const after = json(pin.pending.definition[field]);
    if (before === after) continue;
    text += `${field}:\n`;
    for (const part of diffLines(before, after)) {
      const mark = part.added ? "+ " : part.removed ? "- " : "  ";
      for (const line of part.value.replace(/\n$/, "").split("\n")) text += `${mark}${line}\n`;
    }
  }
  return text;
}

const json = (v: unknown) => (v === undefined ? "(none)\n" : JSON.stringify(v, null, 2) + "\n");
const render = (label: string, d: ToolDefinition) => `${label}:\n${json(d).replace(/^/gm, "  ")}`;
