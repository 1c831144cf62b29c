import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { packageFile } from "../../package-files.js";
import { KINDS, type TextModel } from "./text-model.js";

/*
 * The text model's weights as shipped (rules/text-model.bin), written by bench/train-classifier.mjs --ship and read
 * once per process, when a rule naming `text_model` is compiled (guardian start, never per message). Loading spreads
 * the sparse entries into one int16 weight per bucket (text-model.ts reads one per feature).
 *
 * Format (little-endian): "GWTM2\n"; a u32 length and that many bytes of JSON {format, bits, bias, threshold, scale,
 * count, kinds, kindWeights, sha256 of everything after the header} (padded with spaces so what follows is 4-byte aligned); 65,536 u16 entry counts, one per
 * block of bucket ids (a bucket's high 16 bits); `count` i32 entries in bucket order, each the bucket's low bits in
 * its high 16 bits and its weight quantised to int16 (weight = q × scale) in its low 16 bits. Nothing follows. Any
 * other shape is refused with the reason.
 */

export const TEXT_MODEL_FILE = "rules/text-model.bin";
const MAGIC = "GWTM2\n";
const FORMAT = "guardwire-text-model/2";
const BLOCKS = 1 << 16;

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
  sha256: string;
}

/** Writes a model: sorted, distinct bucket ids and their weights (quantised to int16 here). */
export function encodeTextModel(m: { bits: number; bias: number; threshold: number; kindWeights: number[]; buckets: Int32Array | number[]; weights: Float64Array | number[] }): Uint8Array {
  let max = 0;
  for (const w of m.weights) max = Math.max(max, Math.abs(w));
  const scale = max > 0 ? max / 32767 : 1;
  const shift = m.bits - 16;
  const body = Buffer.alloc(2 * BLOCKS + 4 * m.buckets.length);
  const countsAt = 0;
  let o = 2 * BLOCKS;
  let last = -1;
  for (let k = 0; k < m.buckets.length; k++) {
    const b = m.buckets[k] as number;
    if (b <= last || b >= 1 << m.bits) throw new Error("encodeTextModel: bucket ids must be sorted, distinct and in range");
    last = b;
    const at = countsAt + 2 * (b >>> shift);
    body.writeUInt16LE(body.readUInt16LE(at) + 1, at);
    o = body.writeInt32LE(((b & ((1 << shift) - 1)) << 16) | (Math.round((m.weights[k] as number) / scale) & 0xffff), o);
  }
  const header: TextModelHeader = { format: FORMAT, bits: m.bits, bias: m.bias, threshold: m.threshold, scale, count: m.buckets.length, kinds: [...KINDS], kindWeights: m.kindWeights, sha256: createHash("sha256").update(body).digest("hex") };
  let json = JSON.stringify(header);
  while ((MAGIC.length + 4 + Buffer.byteLength(json)) % 4 !== 0) json += " ";
  const jsonBytes = Buffer.from(json, "utf8");
  const head = Buffer.alloc(MAGIC.length + 4);
  head.write(MAGIC, 0, "latin1");
  head.writeUInt32LE(jsonBytes.length, MAGIC.length);
  return Buffer.concat([head, jsonBytes, body]);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

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
  if (o % 4 !== 0) fail("header not padded to 4 bytes");
  if (buf.length !== o + 2 * BLOCKS + 4 * h.count) fail(`${buf.length - o} bytes where ${2 * BLOCKS + 4 * h.count} of counts and entries were expected`);
  // one native pass stands for checking every entry (a damaged table would give wrong weights, never unbounded work)
  if (createHash("sha256").update(buf.subarray(o)).digest("hex") !== h.sha256) fail("its counts and entries do not match their sha256");
  // The blocks' counts say how many entries each block of 2^(bits − 16) buckets holds; each entry names its bucket's
  // low bits, in order. Spread into one weight per bucket.
  let total = 0;
  for (let b = 0; b < BLOCKS; b++) total += (buf[o + 2 * b] as number) + ((buf[o + 2 * b + 1] as number) << 8);
  if (total !== h.count) fail("block counts do not add up to the entries");
  const shift = h.bits - 16;
  const weights = new Int16Array(1 << h.bits);
  const at = o + 2 * BLOCKS;
  const entries = LITTLE_ENDIAN ? new Int32Array(buf.buffer.slice(buf.byteOffset + at, buf.byteOffset + at + 4 * h.count)) : Int32Array.from({ length: h.count }, (_, j) => buf.readInt32LE(at + 4 * j));
  let k = 0;
  for (let b = 0; b < BLOCKS; b++) {
    const n = (buf[o + 2 * b] as number) + ((buf[o + 2 * b + 1] as number) << 8);
    let last = -1;
    for (let j = 0; j < n; j++, k++) {
      const e = entries[k] as number;
      const lo = e >>> 16;
      if (lo <= last || lo >= 1 << shift) fail(`block ${b}: entries out of order or out of range`);
      last = lo;
      weights[(b << shift) | lo] = (e << 16) >> 16;
    }
  }
  return { bits: h.bits, bias: h.bias, threshold: h.threshold, kindWeights: Float32Array.from(h.kindWeights), weights, scale: h.scale };
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
