import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One span as OTLP/HTTP JSON carries it, attributes flattened to plain values. */
export interface ReceivedSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  status: { code?: number; message?: string };
  /** Nanoseconds since the epoch, as OTLP/JSON writes them (strings). */
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  links: { traceId: string; spanId: string; attributes: Record<string, unknown> }[];
  attributes: Record<string, unknown>;
  service: unknown;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
}

const valueOf = (v: AnyValue): unknown =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue ?? (v.arrayValue ? (v.arrayValue.values ?? []).map(valueOf) : undefined);
const flat = (attrs: { key: string; value: AnyValue }[] = []) => Object.fromEntries(attrs.map((a) => [a.key, valueOf(a.value)]));

/** An OTLP/HTTP receiver (JSON, `POST /v1/traces`) on a loopback port, keeping every span it is sent. */
export async function startOtlpReceiver(): Promise<{ endpoint: string; spans: ReceivedSpan[]; until(ready: (s: ReceivedSpan[]) => boolean, ms?: number): Promise<ReceivedSpan[]>; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces" || !String(req.headers["content-type"]).startsWith("application/json")) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans: { resource?: { attributes?: { key: string; value: AnyValue }[] }; scopeSpans: { spans: (Omit<ReceivedSpan, "attributes" | "service" | "links"> & { attributes?: { key: string; value: AnyValue }[]; links?: { traceId: string; spanId: string; attributes?: { key: string; value: AnyValue }[] }[] })[] }[] }[];
      };
      for (const rs of body.resourceSpans) {
        const service = flat(rs.resource?.attributes)["service.name"];
        for (const ss of rs.scopeSpans) {
          for (const s of ss.spans) {
            const links = (s.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId, attributes: flat(l.attributes) }));
            spans.push({ ...s, parentSpanId: s.parentSpanId ?? "", attributes: flat(s.attributes), links, service });
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    spans,
    async until(ready, ms = 20_000) {
      const deadline = Date.now() + ms;
      while (!ready(spans)) {
        if (Date.now() > deadline) throw new Error(`spans not received in time; have: ${spans.map((s) => s.name).join(", ")}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return spans;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
