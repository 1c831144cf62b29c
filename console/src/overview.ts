import { api } from "./api.js";
import { fill, h, svg, time } from "./dom.js";
import { errorLine, fields, refreshing, type View } from "./view.js";

interface Stats {
  now: string;
  since: string;
  bucketMs: number;
  totals: Record<string, number>;
  buckets: { t: string; decisions: Record<string, number>; rules: Record<string, number> }[];
}

interface Head {
  file: string | null;
  head: { seq: number; hash: string; time: string } | null;
  bytes: number | null;
  rotated?: number;
}

const DECISIONS = ["allow", "modify", "ask", "deny"];
/** The decisions' colours (style.css `.d-*`, and the badges' hues). */
export const DECISION_COLOURS: Record<string, string> = { allow: "#59a14f", modify: "#4e79a7", ask: "#edc948", deny: "#e15759" };
/** The rules chart's own colours (style.css `.s-*`): none is a decision's, so no rule reads as allow or deny by colour. */
export const RULE_PALETTE = ["#f28e2b", "#b07aa1", "#76b7b2", "#9c755f", "#d37295", "#7f7f7f", "#17becf", "#bcbd22"];
const SHOWN = 60;
const H = 160;
/** The narrowest a chart is drawn; a card narrower than this scrolls it. */
const MIN_W = 240;

/** Stacked bars, one per time bucket, one colour per series; each bar's title tells its counts. */
function chart(
  buckets: { t: string; values: Record<string, number> }[],
  now: string,
  bucketMs: number,
  series: string[],
  colours: Record<string, string>,
  label: string,
  swatch: (s: string, i: number) => string,
  W: number,
): Element {
  buckets = buckets.filter((b) => Date.parse(b.t) > Date.parse(now) - SHOWN * bucketMs);
  const max = Math.max(1, ...buckets.map((b) => series.reduce((n, s) => n + (b.values[s] ?? 0), 0)));
  const slot = W / SHOWN;
  // Placed by time (the server's clock), so a quiet minute shows as a gap.
  const end = Date.parse(now) - (Date.parse(now) % bucketMs);
  const bars = buckets.map((b) => {
    let y = H;
    const x = (SHOWN - 1 - Math.round((end - Date.parse(b.t)) / bucketMs)) * slot;
    const parts = series.flatMap((s) => {
      const n = b.values[s] ?? 0;
      if (n === 0) return [];
      const hgt = (n / max) * (H - 10);
      y -= hgt;
      return [svg("rect", { x: x + 1, y, width: Math.max(1, slot - 2), height: hgt, fill: colours[s] ?? "#999" })];
    });
    const tip = `${time(b.t)}: ${series.map((s) => `${s} ${b.values[s] ?? 0}`).join(", ")}`;
    return svg("g", {}, svg("title", {}, tip), ...parts);
  });
  return h(
    "figure",
    { class: "chart" },
    svg("svg", { viewBox: `0 0 ${W} ${H + 16}`, width: W, height: H + 16, role: "img", "aria-label": label }, svg("line", { x1: 0, y1: H, x2: W, y2: H, class: "axis" }), svg("text", { x: 2, y: 10, class: "tick" }, String(max)),
      svg("text", { x: 2, y: H + 13, class: "tick" }, `−${Math.round((SHOWN * bucketMs) / 60_000)} min`),
      svg("text", { x: W - 2, y: H + 13, class: "tick", "text-anchor": "end" }, "now"),
      ...bars,
    ),
    h("figcaption", null, label, " ", ...series.map((s) => h("span", { class: "legend" }, h("i", { class: `swatch ${swatch(s, series.indexOf(s))}` }), s))),
  );
}

export function overviewView(): View {
  const totals = h("div", { class: "totals", id: "overview-totals" });
  const charts = h("div", { id: "overview-charts" });
  const chain = h("div", { id: "overview-chain" });
  const verifyOut = h("div", { id: "overview-verify" });
  const verify = h("button", { type: "button", id: "verify-button", on: { click: () => void runVerify() } }, "Verify the chain");
  const root = h("section", { id: "view-overview" }, totals, charts, h("h3", null, "Decision log"), chain, h("div", { class: "toolbar" }, verify), verifyOut);
  let last: Stats | undefined;
  let drawnFor = 0;
  // Drawn for the card's width (in CSS pixels, one user unit each): a wider or narrower window draws them again.
  const resized = new ResizeObserver(() => {
    if (last && width() !== drawnFor) drawCharts(last);
  });
  resized.observe(charts);
  /** The width inside a chart's card (its padding and border off). */
  const width = () => Math.max(MIN_W, Math.floor(charts.clientWidth) - 18);

  function drawCharts(s: Stats): void {
    last = s;
    const W = (drawnFor = width());
    const buckets = s.buckets.slice(-SHOWN);
    const ruleTotals = new Map<string, number>();
    for (const b of buckets) for (const [r, n] of Object.entries(b.rules)) ruleTotals.set(r, (ruleTotals.get(r) ?? 0) + n);
    const top = [...ruleTotals].sort((a, b) => b[1] - a[1]).slice(0, RULE_PALETTE.length).map(([r]) => r);
    const ruleColours = Object.fromEntries(top.map((r, i) => [r, RULE_PALETTE[i] as string]));
    fill(
      charts,
      chart(buckets.map((b) => ({ t: b.t, values: b.decisions })), s.now, s.bucketMs, DECISIONS, DECISION_COLOURS, "Decisions over time", (d) => `d-${d}`, W),
      top.length > 0 ? chart(buckets.map((b) => ({ t: b.t, values: b.rules })), s.now, s.bucketMs, top, ruleColours, "Rules fired over time", (_r, i) => `s-${i}`, W) : h("p", { class: "muted" }, "No rule has fired yet."),
    );
  }

  async function load(): Promise<void> {
    try {
      const [s, head] = await Promise.all([api<Stats>("GET", "/api/stats"), api<Head>("GET", "/api/log/head")]);
      fill(totals, ...DECISIONS.map((d) => h("div", { class: `total ${d}` }, h("span", { class: "n" }, s.totals[d] ?? 0), h("span", null, d))), h("div", { class: "muted" }, `since ${time(s.since)}, per ${s.bucketMs / 1000} s`));
      drawCharts(s);
      fill(
        chain,
        head.file
          ? fields([
              ["file", head.file],
              ["size", head.bytes === null ? null : `${head.bytes} bytes`],
              ["rotated files", head.rotated ?? 0],
              ["head seq", head.head?.seq ?? "none yet"],
              ["head hash", head.head?.hash],
              ["head written", head.head?.time],
            ])
          : h("p", { class: "muted" }, "The decision log goes to stderr: no file, no head."),
      );
    } catch (e) {
      fill(totals, errorLine(e));
    }
  }

  async function runVerify(): Promise<void> {
    verify.disabled = true;
    fill(verifyOut, h("p", { class: "muted" }, "verifying…"));
    try {
      const r = await api<{ files: string[]; ms: number; result: { ok: boolean; lines?: number; lastSeq?: number; reason?: string; file?: string; line?: number; note?: string; torn?: unknown } }>("POST", "/api/log/verify");
      const v = r.result;
      fill(
        verifyOut,
        v.ok
          ? h("p", { class: "ok", id: "verify-result" }, `Chain intact: ${v.lines} lines in ${r.files.length} file(s), last seq ${v.lastSeq}${v.torn ? ", torn last line (crash)" : ""} — ${r.ms} ms`)
          : h("p", { class: "error", id: "verify-result" }, `Chain broken at ${v.file}:${v.line}: ${v.reason}`),
        v.note ? h("p", { class: "muted" }, v.note) : null,
      );
    } catch (e) {
      fill(verifyOut, errorLine(e));
    } finally {
      verify.disabled = false;
    }
  }

  return { id: "overview", title: "Overview", root, ...refreshing(load) };
}
