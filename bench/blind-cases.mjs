// The blind sets' case files as messages (bench/blind.mjs, bench/train-classifier.mjs): a case's defaults merged, the
// case files' conveniences (a tool call written as tool + arguments, file bytes and resource blobs written as text)
// expanded into what goes on the wire, and what each target message carries. The schema: test/fixtures/blind/README.md.

export const b64 = (s) => Buffer.from(s, "utf8").toString("base64");

export const omit = (o, k) => {
  const { [k]: _, ...rest } = o;
  return rest;
};

/** Expands the few conveniences of the case files into the messages that go on the wire. */
export function expandParts(parts) {
  return (parts ?? []).map((p) => {
    if (p.kind === "file" && p.file && p.file.bytesText !== undefined) {
      const { bytesText, ...file } = p.file;
      return { ...p, file: { ...file, bytes: b64(bytesText) } };
    }
    return p;
  });
}

/** A case with its file's defaults and class, its conveniences expanded. */
export function normalizeCase(raw, defaults, fileClass, file) {
  const c = { ...defaults, ...raw, file };
  c.class = c.class ?? fileClass;
  if (defaults.server || raw.server) c.server = { ...(defaults.server ?? {}), ...(raw.server ?? {}) };
  if (typeof c.target === "string") c.target = [c.target];
  if (typeof c.harm === "string") c.harm = [c.harm];
  if (c.protocol === "mcp" && c.call) {
    const call = c.call;
    if (call.tool !== undefined) c.call = { method: "tools/call", params: { name: call.tool, arguments: call.arguments ?? {} } };
    else c.call = { method: call.method ?? "tools/call", params: call.params ?? {} };
    if (c.result && c.result.content)
      c.result = {
        ...c.result,
        content: c.result.content.map((x) =>
          x.type === "resource" && x.resource?.blobText !== undefined ? { ...x, resource: { ...omit(x.resource, "blobText"), blob: b64(x.resource.blobText) } } : x,
        ),
      };
  }
  if (c.protocol === "a2a") {
    c.send = { method: "message/send", ...(c.send ?? {}) };
    c.send.parts = expandParts(c.send.parts);
    if (c.reply?.message) c.reply = { ...c.reply, message: { ...c.reply.message, parts: expandParts(c.reply.message.parts) } };
    if (c.reply?.task) c.reply = { ...c.reply, task: { ...c.reply.task, artifacts: (c.reply.task.artifacts ?? []).map((a) => ({ ...a, parts: expandParts(a.parts) })) } };
  }
  return c;
}

/** What a target message of a case carries (the part of it the case file writes). */
export function targetContent(c, t) {
  const s = c.server ?? {};
  switch (t) {
    case "initialize": return s.instructions;
    case "tools/list": return s.tools;
    case "prompts/list": return s.prompts;
    case "resources/list": return s.resources;
    case "resources/templates/list": return s.resourceTemplates;
    case "call": return c.call?.params;
    case "result": return c.result ?? c.error;
    case "sampling": return c.sampling;
    case "card": return c.card;
    case "send": return c.send?.parts;
    case "reply": return c.reply;
    default: return undefined;
  }
}

/** Every string in a JSON value, joined: where a harm marker is looked for. */
export function stringsOf(v, out = []) {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) stringsOf(x, out);
  else if (v && typeof v === "object")
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      stringsOf(x, out);
    }
  return out;
}
