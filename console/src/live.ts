import { api } from "./api.js";
import { badge, fill, h, select, time } from "./dom.js";
import { fields, openDetails, type View } from "./view.js";

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

type Filter = { route: string; agent: string; decision: string; tool: string; rule: string; direction: string };

/** `tail`'s globs: `*` is any run of characters, everything else literal. */
function glob(pattern: string): (v: string | null | undefined) => boolean {
  if (pattern === "") return () => true;
  const re = new RegExp("^" + pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*") + "$");
  return (v) => v !== null && v !== undefined && re.test(v);
}

function matcher(f: Filter): (d: Decision) => boolean {
  const route = glob(f.route);
  const agent = glob(f.agent);
  const tool = glob(f.tool);
  const rule = glob(f.rule);
  return (d) =>
    (f.decision === "" || d.decision === f.decision) &&
    (f.direction === "" || d.direction === f.direction) &&
    route(d.route) &&
    agent(d.agent) &&
    tool(d.tool) &&
    (f.rule === "" || d.rules.some((r) => rule(r)));
}

export function liveView(): View {
  const kept: Decision[] = [];
  const waiting: Decision[] = [];
  const filter: Filter = { route: "", agent: "", decision: "", tool: "", rule: "", direction: "" };
  let matches = matcher(filter);
  let paused = false;

  const body = h("tbody");
  const count = h("span", { class: "muted" });
  const pause = h("button", { type: "button", id: "live-pause", on: { click: () => setPaused(!paused) } }, "Pause");
  const text = (key: "route" | "agent" | "tool" | "rule", placeholder: string) =>
    h("input", {
      name: `filter-${key}`,
      placeholder,
      title: `${placeholder} (* matches anything)`,
      on: {
        input: (e) => {
          filter[key] = (e.target as HTMLInputElement).value.trim();
          refilter();
        },
      },
    });
  const choice = (key: "decision" | "direction", options: [string, string][]) =>
    select("", options, (v) => {
      filter[key] = v;
      refilter();
    }, `filter-${key}`);

  const root = h(
    "section",
    { id: "view-live" },
    h(
      "div",
      { class: "toolbar" },
      text("route", "route"),
      text("agent", "agent"),
      choice("decision", [["", "any decision"], ["allow", "allow"], ["deny", "deny"], ["modify", "modify"], ["ask", "ask"]]),
      text("tool", "tool"),
      text("rule", "rule"),
      choice("direction", [["", "both directions"], ["outbound", "outbound"], ["inbound", "inbound"]]),
      pause,
      count,
    ),
    h(
      "table",
      { class: "grid", id: "live-table" },
      h("thead", null, h("tr", null, ...["time", "decision", "dir", "route", "agent", "method", "tool", "rules", "message"].map((c) => h("th", null, c)))),
      body,
    ),
  );

  function row(d: Decision): HTMLTableRowElement {
    return h(
      "tr",
      { class: "clickable", data: { decision: d.decision }, on: { click: () => details(d) } },
      h("td", { title: d.time }, time(d.time)),
      h("td", null, badge(d.decision), d.mode === "audit" ? h("span", { class: "muted" }, " audit") : null),
      h("td", null, d.direction === "outbound" ? "→" : "←"),
      h("td", null, d.route),
      h("td", null, d.agent ?? ""),
      h("td", null, d.method ?? d.kind),
      h("td", null, d.tool ?? ""),
      h("td", null, d.rules.join(", ")),
      h("td", { class: "message" }, d.message),
    );
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
        ["rules", d.rules.join(", ") || "none (the default)"],
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
        ["approval", d.approval ? JSON.stringify(d.approval) : null],
      ]),
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
