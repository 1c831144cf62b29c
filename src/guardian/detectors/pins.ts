import { hash } from "node:crypto";
import { canonicalize } from "../../protocol/canonical.js";
import type { Detection } from "./scan.js";

/** Pinned tool fingerprints, per server: what a tool looked like when it was first seen (and so approved). */
export interface PinStore {
  get(server: string, tool: string): string | undefined;
}

export interface NewPin {
  server: string;
  tool: string;
  fingerprint: string;
}

/** A tool's identity as the model sees it: name, description and schemas. */
export function toolFingerprint(tool: Record<string, unknown>): string {
  const { name, title, description, inputSchema, outputSchema } = tool;
  return hash("sha256", canonicalize({ name, title, description, inputSchema, outputSchema }), "hex");
}

/**
 * Rug pulls: a tool in a tools/list result whose fingerprint differs from the pinned one. Tools seen for the first
 * time are returned as new pins (the guardian stores them); a changed tool stays flagged until its pin is reset.
 */
export function detectToolChanges(message: Record<string, unknown>, server: string, pins: PinStore): { detections: Detection[]; newPins: NewPin[] } {
  const result = message.result as { tools?: unknown } | undefined;
  const detections: Detection[] = [];
  const newPins: NewPin[] = [];
  if (!result || !Array.isArray(result.tools)) return { detections, newPins };
  result.tools.forEach((tool: unknown, i: number) => {
    if (tool === null || typeof tool !== "object") return;
    const t = tool as Record<string, unknown>;
    if (typeof t.name !== "string") return;
    const fingerprint = toolFingerprint(t);
    const pinned = pins.get(server, t.name);
    if (pinned === undefined) newPins.push({ server, tool: t.name, fingerprint });
    else if (pinned !== fingerprint) {
      const description = typeof t.description === "string" ? t.description : "";
      detections.push({ type: "tool_changed", path: ["result", "tools", i, "description"], start: 0, end: description.length });
    }
  });
  return { detections, newPins };
}
