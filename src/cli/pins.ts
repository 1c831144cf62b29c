import { diffLines } from "diff";
import { GuardwireError } from "../errors.js";
import { PINNED_FIELDS, type Pin, type ToolDefinition } from "../guardian/detectors/pins.js";
import { PinFile } from "../guardian/state.js";

/** `guardwire pins list | reset [server] | show SERVER TOOL | approve SERVER TOOL`. */
export function runPins(action: string, args: string[], file: string, out: { write(s: string): unknown }, err: { write(s: string): unknown }): void {
  const pins = new PinFile(file);
  try {
    pinsAction(pins, action, args, out, err);
  } finally {
    pins.close();
  }
}

function pinsAction(pins: PinFile, action: string, args: string[], out: { write(s: string): unknown }, err: { write(s: string): unknown }): void {
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
    case "reset": {
      const n = pins.reset(server);
      out.write(`reset ${n} pin${n === 1 ? "" : "s"}${server ? ` of ${server}` : ""}; tools are pinned again when next listed\n`);
      return;
    }
    case "show": {
      const t = needTool();
      out.write(showPin(t.server, t.tool, t.pin));
      return;
    }
    case "approve": {
      const t = needTool();
      if (!pins.approve(t.server, t.tool)) throw new GuardwireError("USAGE", `tool "${t.tool}" of server "${t.server}" has no change waiting for approval`);
      out.write(`approved the new definition of "${t.tool}" (${t.server}): sha256:${t.pin.pending?.fingerprint.slice(0, 12)}; it is listed again from the next tools/list\n`);
      return;
    }
    default:
      throw new GuardwireError("USAGE", `unknown pins action "${action}" (list, reset, show or approve)`);
  }
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
