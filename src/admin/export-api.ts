import { createReadStream, existsSync } from "node:fs";
import { once } from "node:events";
import type { ServerResponse } from "node:http";
import { createInterface } from "node:readline";
import { matchesFilter, splitPatterns, type DecisionFilter } from "../observe/filter.js";
import { parseLine } from "../decision-log/reader.js";
import type { DecisionRecord } from "../decision-log/record.js";
import { rotatedLogs, type LogView } from "./log-api.js";
import { fail, type AdminRoute } from "./server.js";

/** The filter fields `GET /api/decisions/export` takes, each repeatable: the same as `tail`'s and the live view's. */
export const EXPORT_FILTERS = ["session", "route", "agent", "rule", "decision", "direction", "method", "tool"] as const;
/** Exports running at once: each reads the whole log. */
const MAX_EXPORTS = 4;

export const CSV_COLUMNS = ["time", "seq", "session", "route", "agent", "direction", "kind", "id", "method", "tool", "decision", "mode", "rules", "reasonCode", "message", "evalUs", "transport", "protocol", "peer", "task", "context", "approval", "replica", "digest", "hash"] as const;

/**
 * `GET /api/decisions/export`: the decisions of the log file and its rotated predecessors, oldest first, filtered as
 * `tail` filters, in a time range, as NDJSON (the log's own lines) or CSV. Streamed line by line with backpressure:
 * memory stays one line deep whatever the log's size.
 */
export function exportRoutes(log: LogView): AdminRoute[] {
  let running = 0;
  return [
    {
      method: "GET",
      pattern: /^\/api\/decisions\/export$/,
      doc: "GET /api/decisions/export",
      run: (_m, { url, res }) => {
        const q = parseQuery(url.searchParams);
        if (typeof q === "string") return fail(400, "BAD_REQUEST", q);
        if (!log.file) return fail(409, "CONFLICT", "the decision log goes to stderr: there is no file to export from");
        if (running >= MAX_EXPORTS) return fail(503, "UNAVAILABLE", `at most ${MAX_EXPORTS} exports at once; retry when one ends`);
        log.flush();
        const file = log.file;
        running++;
        void stream([...rotatedLogs(file), file], q, res)
          .catch(() => res.destroy())
          .finally(() => running--);
      },
    },
  ];
}

export interface ExportQuery {
  format: "ndjson" | "csv";
  from: number | null;
  to: number | null;
  filter: DecisionFilter;
}

/** The query, or what is wrong with it. `from` is inclusive, `to` exclusive; both ISO 8601 times. */
export function parseQuery(p: URLSearchParams): ExportQuery | string {
  const known = new Set<string>(["format", "from", "to", ...EXPORT_FILTERS]);
  for (const k of p.keys()) if (!known.has(k)) return `unknown parameter "${k}" (known: ${[...known].join(", ")})`;
  const format = p.get("format") ?? "ndjson";
  if (format !== "ndjson" && format !== "csv") return "format must be ndjson or csv";
  const time = (k: "from" | "to") => {
    const v = p.get(k);
    if (v === null || v === "") return null;
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  };
  const from = time("from");
  const to = time("to");
  if (from === undefined || to === undefined) return "from and to must be ISO 8601 times (e.g. 2026-11-26T10:00:00Z)";
  const filter: DecisionFilter = {};
  for (const k of EXPORT_FILTERS) {
    const globs = p.getAll(k).flatMap(splitPatterns);
    if (globs.length > 0) filter[k] = globs;
  }
  return { format, from, to, filter };
}

async function stream(files: string[], q: ExportQuery, res: ServerResponse): Promise<void> {
  const stamp = (t: number | null) => (t === null ? "" : new Date(t).toISOString().replace(/[:.]/g, "-"));
  const name = `guardwire-decisions${q.from !== null || q.to !== null ? `_${stamp(q.from)}_${stamp(q.to)}` : ""}.${q.format}`;
  res.writeHead(200, {
    "content-type": q.format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
    "content-disposition": `attachment; filename="${name}"`,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  let closed = false;
  res.once("close", () => (closed = true));
  const write = async (text: string) => {
    if (!res.write(text)) await Promise.race([once(res, "drain"), once(res, "close")]);
  };
  if (q.format === "csv") await write(CSV_COLUMNS.join(",") + "\r\n");
  for (const file of files) {
    if (closed) break;
    if (!existsSync(file)) continue;
    const input = createReadStream(file, { encoding: "utf8", highWaterMark: 64 * 1024 });
    const lines = createInterface({ input, crlfDelay: Infinity });
    try {
      for await (const line of lines) {
        if (closed) break;
        const r = parseLine(line);
        if (!r || !within(r, q) || !matchesFilter(r, q.filter)) continue;
        await write(q.format === "csv" ? csvRow(r) : line + "\n");
      }
    } finally {
      lines.close();
      input.destroy();
    }
  }
  res.end();
}

function within(r: DecisionRecord, q: ExportQuery): boolean {
  if (q.from === null && q.to === null) return true;
  const t = Date.parse(r.time);
  return (q.from === null || t >= q.from) && (q.to === null || t < q.to);
}

/** One CSV record (RFC 4180, CRLF). Lists are joined with spaces; an approval step reads `id step outcome`. */
export function csvRow(r: DecisionRecord): string {
  const a = r.approval;
  const values: Record<(typeof CSV_COLUMNS)[number], unknown> = {
    time: r.time,
    seq: r.seq,
    session: r.session,
    route: r.route,
    agent: r.agent,
    direction: r.direction,
    kind: r.kind,
    id: r.id,
    method: r.method,
    tool: r.tool,
    decision: r.decision,
    mode: r.mode,
    rules: (r.rules ?? []).join(" "),
    reasonCode: (r.reasonCode ?? []).join(" "),
    message: r.message,
    evalUs: r.evalUs,
    transport: r.transport,
    protocol: r.protocol,
    peer: r.peer,
    task: r.task,
    context: r.context,
    approval: a ? [a.id, a.step, a.outcome].filter(Boolean).join(" ") : null,
    replica: r.replica,
    digest: r.digest,
    hash: r.hash,
  };
  return CSV_COLUMNS.map((c) => csvCell(values[c])).join(",") + "\r\n";
}

/**
 * A cell: quoted when it holds a comma, quote or line break. Wire text that a spreadsheet would run as a formula
 * (starting with `=`, `+`, `-`, `@`, a tab or CR) gets a leading `'`; numbers and a lone `-` stay as they are.
 */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  let s = String(v);
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s) && s !== "-" && !/^-?\d+(\.\d+)?$/.test(s)) s = "'" + s;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
