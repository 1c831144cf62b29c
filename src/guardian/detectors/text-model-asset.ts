import { readFileSync } from "node:fs";
import { packageFile } from "../../package-files.js";
import { KINDS, type TextModel } from "./text-model.js";

/*
 * The text model's weights as shipped (rules/text-model.bin), written by bench/train-classifier.mjs --ship and read
 * once per process, when a rule naming `text_model` is compiled (guardian start, never per message).
 *
 * Format (little-endian): "GWTM1\n"; a u32 length and that many bytes of JSON {format, bits, bias, threshold, scale,
 * count, kinds, kindWeights}; `count` bucket ids as unsigned LEB128 deltas (the first from −1, each > 0); `count`
 * int16 weights (weight = q × scale). Nothing follows. Any other shape is refused with the reason.
 */

export const TEXT_MODEL_FILE = "rules/text-model.bin";
const MAGIC = "GWTM1\n";
const FORMAT = "guardwire-text-model/1";

/** The header as written. */
export interface TextModelHeader {
  format: string;
  bits: number;
  bias: number;
  threshold: number;
  scale: number;
  count: number;
  kinds: string[];
  kindWeights: number[];
}

/** Writes a model: sorted bucket ids and their weights (quantised to int16 here). */
export function encodeTextModel(m: { bits: number; bias: number; threshold: number; kindWeights: number[]; buckets: Int32Array | number[]; weights: Float64Array | number[] }): Uint8Array {
  let max = 0;
  for (const w of m.weights) max = Math.max(max, Math.abs(w));
  const scale = max > 0 ? max / 32767 : 1;
  const header: TextModelHeader = { format: FORMAT, bits: m.bits, bias: m.bias, threshold: m.threshold, scale, count: m.buckets.length, kinds: [...KINDS], kindWeights: m.kindWeights };
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const varints: number[] = [];
  let last = -1;
  for (const b of m.buckets) {
    let d = b - last;
    if (d <= 0) throw new Error("encodeTextModel: bucket ids must be sorted and distinct");
    last = b;
    while (d >= 0x80) {
      varints.push((d & 0x7f) | 0x80);
      d >>>= 7;
    }
    varints.push(d);
  }
  const out = Buffer.alloc(MAGIC.length + 4 + json.length + varints.length + 2 * m.buckets.length);
  let o = out.write(MAGIC, 0, "latin1");
  o = out.writeUInt32LE(json.length, o);
  o += json.copy(out, o);
  for (const v of varints) out[o++] = v;
  for (const w of m.weights) o = out.writeInt16LE(Math.round(w / scale), o);
  return out;
}

/** Reads a model from its bytes; throws with the reason when they are not one. */
export function decodeTextModel(bytes: Uint8Array): TextModel {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (why: string): never => {
    throw new Error(`not a text model: ${why}`);
  };
  if (buf.length < MAGIC.length + 4 || buf.toString("latin1", 0, MAGIC.length) !== MAGIC) fail("bad magic");
  const jsonLength = buf.readUInt32LE(MAGIC.length);
  let o = MAGIC.length + 4;
  if (o + jsonLength > buf.length) fail("header runs past the end");
  let h: TextModelHeader;
  try {
    h = JSON.parse(buf.toString("utf8", o, o + jsonLength)) as TextModelHeader;
  } catch {
    return fail("header is not JSON");
  }
  o += jsonLength;
  if (h.format !== FORMAT) fail(`format ${String(h.format)} (expected ${FORMAT})`);
  if (!Number.isInteger(h.bits) || h.bits < 16 || h.bits > 24) fail("bits out of range");
  for (const k of ["bias", "threshold", "scale"] as const) if (typeof h[k] !== "number" || !Number.isFinite(h[k])) fail(`${k} is not a number`);
  if (!(h.threshold > 0 && h.threshold < 1)) fail("threshold out of (0, 1)");
  if (!Number.isInteger(h.count) || h.count < 0 || h.count > 1 << h.bits) fail("count out of range");
  if (JSON.stringify(h.kinds) !== JSON.stringify(KINDS)) fail("kinds differ from this version's");
  if (!Array.isArray(h.kindWeights) || h.kindWeights.length !== KINDS.length || !h.kindWeights.every((w) => Number.isFinite(w))) fail("kind weights");
  const shift = h.bits - 16;
  const offsets = new Uint32Array((1 << 16) + 1);
  const entries = new Int32Array(h.count);
  const size = 1 << h.bits;
  let bucket = -1;
  for (let k = 0; k < h.count; k++) {
    let d = 0;
    let mul = 1;
    for (;;) {
      if (o >= buf.length) fail("bucket ids run past the end");
      const byte = buf[o++] as number;
      d += (byte & 0x7f) * mul;
      if (byte < 0x80) break;
      mul *= 128;
      if (mul > 2 ** 28) fail("bucket delta too long");
    }
    if (d === 0) fail("bucket ids not increasing");
    bucket += d;
    if (bucket >= size) fail("bucket id out of range");
    entries[k] = (bucket & ((1 << shift) - 1)) << 16;
    const block = (bucket >>> shift) + 1;
    offsets[block] = (offsets[block] as number) + 1;
  }
  for (let b = 1; b < offsets.length; b++) offsets[b] = (offsets[b] as number) + (offsets[b - 1] as number);
  if (o + 2 * h.count !== buf.length) fail(`${buf.length - o} bytes where ${2 * h.count} of weights were expected`);
  for (let k = 0; k < h.count; k++, o += 2) entries[k] = (entries[k] as number) | ((buf[o] as number) | ((buf[o + 1] as number) << 8));
  return { bits: h.bits, bias: h.bias, threshold: h.threshold, kindWeights: Float32Array.from(h.kindWeights), offsets, entries, scale: h.scale };
}

let loaded: { path: string; model: TextModel } | undefined;

/** The shipped model (or the one at `path`), read and decoded once per process; throws with the file and the reason. */
export function loadTextModel(path = packageFile(TEXT_MODEL_FILE)): TextModel {
  if (loaded?.path === path) return loaded.model;
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new Error(`the text model's weights cannot be read at ${path}: ${(e as Error).message} (reinstall guardwire, or rebuild them with node bench/train-classifier.mjs --ship)`);
  }
  try {
    loaded = { path, model: decodeTextModel(bytes) };
  } catch (e) {
    throw new Error(`the text model's weights at ${path} are damaged: ${(e as Error).message} (reinstall guardwire, or rebuild them with node bench/train-classifier.mjs --ship)`);
  }
  return loaded.model;
}
