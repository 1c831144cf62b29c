import { api, download } from "./api.js";
import { activatable, badge, fill, h, select, shortId, time, type Child, type Props } from "./dom.js";
import { filterQuery, matcher, patterns, type DecisionFilter, type FilterField } from "./filter.js";
import { approvalFields, fields, openDetails, type View } from "./view.js";

const COLUMNS = ["time", "session", "decision", "dir", "route", "agent", "method", "tool", "rule", "message"];

/** A decision as the event stream carries it: the log's DecisionInput with its time. */
export interface Decision {
  time: string;
  session: string;
  route: string;
  transport: string;
  protocol: string;
  direction: "outbound" | "inbound";
  kind: string;
  id: string | number | null;
  method: string | null;
  tool: string | null;
  agent: string | null;
  decision: string;
  mode: string;
  rules: string[];
  reasonCode: string[];
  message: string;
  evalUs: number;
  digest: string | null;
  ruleset?: string;
  preview?: string;
  peer?: string;
  task?: string;
  context?: string;
  failOpen?: boolean;
  approval?: Record<string, unknown>;
}

const KEEP = 500;
const WAITING = 2000;

/** The live view's text filters, in the order shown (decision and direction are choices). */
const TEXT_FILTERS = [
  ["session", "session"],
  ["route", "route"],
  ["agent", "agent"],
  ["method", "method"],
  ["tool", "tool"],
  ["rule", "rule"],
] as const satisfies readonly (readonly [FilterField, string])[];

/** Wire text worth a column: like tail, an allow says nothing more than its rule (or the default) already does. */
export function shownMessage(d: Pick<Decision, "decision" | "kind" | "message">): string {
  return d.decision !== "allow" || d.kind === "log" || d.kind === "control" || d.kind === "refused" ? d.message : "";
}

export function liveView(): View & { onlySession(id: string): void } {
  const kept: Decision[] = [];
  const waiting: Decision[] = [];
  const filter: DecisionFilter = {};
  let matches = matcher(filter);
  let paused = false;

  const body = h("tbody");
  const count = h("span", { class: "muted", id: "live-count", attrs: { "aria-live": "polite" } });
  const pause = h("button", { type: "button", id: "live-pause", on: { click: () => setPaused(!paused) } }, "Pause");
  const inputs = new Map<FilterField, HTMLInputElement | HTMLSelectElement>();
  const setFilter = (key: FilterField, value: string) => {
    const globs = patterns(value);
    if (globs.length > 0) filter[key] = globs;
    else delete filter[key];
    refilter();
  };
  const text = (key: FilterField, placeholder: string) => {
    const input = h("input", {
      name: `filter-${key}`,
      placeholder,
      title: `${placeholder}: globs as in guardwire tail --${key} (* any characters; a,b either)`,
      attrs: { "aria-label": `filter by ${placeholder}` },
      on: { input: () => setFilter(key, input.value) },
    });
    inputs.set(key, input);
    return input;
  };
  const choice = (key: "decision" | "direction", options: [string, string][]) => {
    const s = select("", options, (v) => setFilter(key, v), `filter-${key}`, `filter by ${key}`);
    inputs.set(key, s);
    return s;
  };
  /** Shows one session's decisions (a click on its id here or in the Sessions view). */
  const onlySession = (id: string) => {
    const input = inputs.get("session") as HTMLInputElement;
    input.value = id;
    setFilter("session", id);
  };

  const from = h("input", { type: "datetime-local", name: "export-from", attrs: { "aria-label": "export from (local time)", step: "1" } });
  const to = h("input", { type: "datetime-local", name: "export-to", attrs: { "aria-label": "export to (local time)", step: "1" } });
  const exportNote = h("span", { class: "muted", id: "export-note", attrs: { "aria-live": "polite" } });
  const exportButton = (format: "ndjson" | "csv", label: string) => h("button", { type: "button", id: `export-${format}`, on: { click: () => void exportAs(format) } }, label);

  const root = h(
    "section",
    { id: "view-live" },
    h(
      "div",
      { class: "toolbar", attrs: { role: "search" } },
      ...TEXT_FILTERS.slice(0, 3).map(([k, p]) => text(k, p)),
      choice("decision", [["", "any decision"], ["allow", "allow"], ["deny", "deny"], ["modify", "modify"], ["ask", "ask"]]),
      choice("direction", [["", "both directions"], ["outbound", "outbound"], ["inbound", "inbound"]]),
      ...TEXT_FILTERS.slice(3).map(([k, p]) => text(k, p)),
      pause,
      count,
    ),
    h(
      "div",
      { class: "toolbar", id: "export-bar" },
      h("label", null, "from ", from),
      h("label", null, "to ", to),
      exportButton("ndjson", "Export NDJSON"),
      exportButton("csv", "Export CSV"),
      exportNote,
    ),
    h(
      "table",
      { class: "grid", id: "live-table" },
      h("thead", null, h("tr", null, ...COLUMNS.map((c) => h("th", null, c)))),
      body,
    ),
  );

  function row(d: Decision): HTMLTableRowElement {
    const cell = (label: string, props: Props | null, ...children: Child[]) => h("td", { ...props, data: { label } }, ...children);
    const session = h("button", { type: "button", class: "link mono", title: `${d.session}: show only this session`, on: { click: () => onlySession(d.session) } }, shortId(d.session));
    return activatable(
      h(
        "tr",
        { class: "clickable", data: { decision: d.decision, session: d.session } },
        cell("time", { title: d.time }, time(d.time)),
        cell("session", null, session),
        cell("decision", null, badge(d.decision), d.mode === "audit" ? h("span", { class: "muted" }, " audit") : null),
        cell("dir", { title: d.direction }, d.direction === "outbound" ? "→" : "←"),
        cell("route", null, d.route),
        cell("agent", null, d.agent ?? ""),
        cell("method", null, d.method ?? d.kind),
        cell("tool", null, d.tool ?? ""),
        cell("rule", { class: "rule" }, d.rules.length > 0 ? d.rules.join(", ") : h("span", { class: "muted", title: "no rule matched: the rule set's default decided" }, "—")),
        cell("message", { class: "message" }, shownMessage(d)),
      ),
      () => details(d),
      `details of ${d.decision} ${d.method ?? d.kind} at ${time(d.time)}`,
    );
  }

  /** The server streams the log's lines with the same filters; the browser saves what it gets as a file. */
  async function exportAs(format: "ndjson" | "csv"): Promise<void> {
    const q = filterQuery(filter);
    q.set("format", format);
    for (const [k, input] of [["from", from], ["to", to]] as const) if (input.value) q.set(k, new Date(input.value).toISOString());
    exportNote.textContent = "exporting…";
    try {
      const saved = await download(`/api/decisions/export?${q}`);
      exportNote.textContent = `saved ${saved.name} (${saved.bytes} bytes)`;
    } catch (e) {
      exportNote.textContent = e instanceof Error ? e.message : String(e);
    }
  }

  function status(): void {
    const shown = body.childElementCount;
    count.textContent = paused ? `paused — ${waiting.length} new waiting` : `${shown} shown of the last ${kept.length}`;
  }

  function refilter(): void {
    matches = matcher(filter);
    fill(body, ...kept.filter(matches).reverse().map(row));
    status();
  }

  function add(d: Decision): void {
    kept.push(d);
    if (kept.length > KEEP) kept.shift();
    if (matches(d)) {
      body.prepend(row(d));
      while (body.childElementCount > KEEP) body.lastElementChild?.remove();
    }
  }

  function setPaused(p: boolean): void {
    paused = p;
    pause.textContent = p ? "Resume" : "Pause";
    if (!p) for (const d of waiting.splice(0)) add(d);
    status();
  }

  function details(d: Decision): void {
    openDetails(
      `${d.decision} — ${d.method ?? d.kind}`,
      fields([
        ["time", d.time],
        ["decision", `${d.decision}${d.mode === "audit" ? " (audit)" : ""}`],
        ["rules", d.rules.join(", ") || "none matched (the rule set's default decided)"],
        ["reason codes", d.reasonCode.join(", ")],
        ["message", d.message],
        ["evaluation", `${d.evalUs} µs`],
        ["route", d.route],
        ["session", d.session],
        ["transport", `${d.transport} · ${d.protocol}`],
        ["direction", d.direction],
        ["kind", d.kind],
        ["id", d.id === null ? null : String(d.id)],
        ["method", d.method],
        ["tool", d.tool],
        ["agent", d.agent],
        ["peer", d.peer],
        ["task", d.task],
        ["context", d.context],
        ["rule set", d.ruleset],
        ["digest", d.digest],
        ["fail open", d.failOpen ? "yes" : null],
      ]),
      ...(d.approval ? [h("h4", null, "approval"), approvalFields(d.approval)] : []),
      h("h4", null, "preview"),
      d.preview !== undefined ? h("pre", { class: "preview" }, d.preview) : h("p", { class: "muted" }, "no preview: start guardwire with --log-preview (logPreview: true) to keep a redacted one"),
    );
  }

  // What was decided before the page opened; the stream may already have brought some of it.
  const key = (d: Decision) => [d.time, d.session, d.direction, d.kind, String(d.id), d.digest, d.decision].join("\u0000");
  void api<{ decisions: Decision[] }>("GET", "/api/decisions/recent").then(
    (r) => {
      const seen = new Set(kept.map(key));
      const merged = [...r.decisions.filter((d) => !seen.has(key(d))), ...kept].sort((a, b) => a.time.localeCompare(b.time)).slice(-KEEP);
      kept.splice(0, kept.length, ...merged);
      refilter();
    },
    () => {},
  );
  status();
  return {
    id: "live",
    title: "Live decisions",
    root,
    onlySession,
    event(name, data) {
      if (name !== "decision") return;
      const d = data as Decision;
      if (d.kind === "log") return;
      if (paused) {
        waiting.push(d);
        if (waiting.length > WAITING) waiting.shift();
      } else add(d);
      status();
    },
  };
}
