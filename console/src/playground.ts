import { api } from "./api.js";
import { badge, fill, h, select } from "./dom.js";
import { errorLine, fields, type View } from "./view.js";

interface Answer {
  decision: string;
  mode: string;
  rules: string[];
  reasonCode: string[];
  message: string;
  audit: { decision: string; rules: string[] } | null;
  errors: { rule: string; error: string }[];
  detected: string[];
  ask: { prompt: string } | null;
  diff: { added?: boolean; removed?: boolean; value: string }[] | null;
  evalUs: number;
}

const SAMPLE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_file", arguments: { path: "/home/me/.ssh/id_rsa" } } }, null, 2);

export function playgroundView(): View {
  const input = h("textarea", { name: "message", rows: 14, value: SAMPLE });
  let direction = "outbound";
  let protocol = "mcp";
  const route = h("input", { name: "route", placeholder: "route (optional)" });
  const agent = h("input", { name: "agent", placeholder: "agent (optional)" });
  const out = h("div", { id: "playground-result" });
  const run = async () => {
    try {
      const r = await api<Answer>("POST", "/api/playground", { message: input.value, direction, protocol, route: route.value, agent: agent.value });
      fill(
        out,
        h("p", null, badge(r.decision), r.mode === "audit" ? " (audit)" : "", ` in ${r.evalUs} µs`),
        fields([
          ["matched rules", r.rules.join(", ") || "none (the default decided)"],
          ["reason codes", r.reasonCode.join(", ")],
          ["message", r.message],
          ["audit would", r.audit ? `${r.audit.decision} (${r.audit.rules.join(", ")})` : null],
          ["detected", r.detected.join(", ")],
          ["asks", r.ask?.prompt],
          ["rule errors", r.errors.map((e) => `${e.rule}: ${e.error}`).join("; ")],
        ]),
        r.diff ? h("div", null, h("h4", null, "modified message"), h("pre", { class: "diff" }, ...r.diff.map((c) => h("span", { class: c.added ? "add" : c.removed ? "del" : "same" }, c.value)))) : null,
      );
    } catch (e) {
      fill(out, errorLine(e));
    }
  };
  const root = h(
    "section",
    { id: "view-playground" },
    h("p", { class: "muted" }, "Paste one JSON-RPC message and see what the rules in force decide. Nothing is forwarded or logged."),
    input,
    h(
      "div",
      { class: "toolbar" },
      select(direction, [["outbound", "outbound (agent → server)"], ["inbound", "inbound (server → agent)"]], (v) => (direction = v), "direction"),
      select(protocol, [["mcp", "MCP"], ["a2a", "A2A"]], (v) => (protocol = v), "protocol"),
      route,
      agent,
      h("button", { type: "button", id: "playground-run", on: { click: () => void run() } }, "Evaluate"),
    ),
    out,
  );
  return { id: "playground", title: "Playground", root };
}
