import { api, ApiError } from "./api.js";
import { badge, fill, h, time } from "./dom.js";
import { errorLine, refreshing, type View } from "./view.js";

interface RulesAnswer {
  ruleset: { name: string; hash: string; default: string; defaultMode: string };
  paths: string[];
  last: { at: string; by: string; ok: boolean; rules?: number; hash?: string; problems?: string[] };
  packs: { file: string; rules: number }[];
  rules: { id: string; file: string; description: string | null; decision: string; mode: string; reasonCode: string | null; alert: { severity: string } | null; fired: number }[];
}

const base = (file: string) => file.split(/[\\/]/).pop() ?? file;

export function rulesView(): View {
  const head = h("div");
  const reloadNote = h("div", { id: "rules-reload" });
  const body = h("tbody");
  const reload = h("button", { type: "button", id: "rules-reload-button", on: { click: () => void doReload() } }, "Reload rules");
  const root = h(
    "section",
    { id: "view-rules" },
    h("div", { class: "toolbar" }, reload, h("span", { class: "muted" }, "Reads the rule files again; a set that does not load leaves the rules in force as they are.")),
    reloadNote,
    head,
    h("table", { class: "grid", id: "rules-table" }, h("thead", null, h("tr", null, ...["rule", "pack", "decision", "mode", "reason code", "fired", "description"].map((c) => h("th", null, c)))), body),
  );

  function render(r: RulesAnswer): void {
    fill(
      head,
      h("p", null, `Rule set `, h("strong", null, r.ruleset.name), ` · ${r.rules.length} rules · default ${r.ruleset.default}${r.ruleset.defaultMode === "audit" ? " (audit)" : ""} · hash ${r.ruleset.hash.slice(0, 16)}…`),
      h("p", { class: "muted" }, `From ${r.paths.join(", ")} · packs: ${r.packs.map((p) => `${base(p.file)} (${p.rules})`).join(", ")}`),
      h("p", { class: r.last.ok ? "muted" : "error" }, `Last load ${time(r.last.at)} (${r.last.by}): ${r.last.ok ? "ok" : "failed — the previous rules stay in force"}`),
    );
    fill(
      body,
      ...r.rules.map((rule) =>
        h(
          "tr",
          { data: { rule: rule.id } },
          h("td", { data: { label: "rule" } }, rule.id),
          h("td", { title: rule.file, data: { label: "pack" } }, base(rule.file)),
          h("td", { data: { label: "decision" } }, badge(rule.decision)),
          h("td", { data: { label: "mode" } }, rule.mode),
          h("td", { data: { label: "reason code" } }, rule.reasonCode ?? ""),
          h("td", { class: "num fired", data: { label: "fired" } }, rule.fired),
          h("td", { class: "muted", data: { label: "description" } }, rule.description ?? ""),
        ),
      ),
    );
  }

  async function load(): Promise<void> {
    try {
      render(await api<RulesAnswer>("GET", "/api/rules"));
    } catch (e) {
      fill(head, errorLine(e));
    }
  }

  async function doReload(): Promise<void> {
    reload.disabled = true;
    try {
      const r = await api<RulesAnswer>("POST", "/api/rules/reload");
      fill(reloadNote, h("p", { class: "ok" }, `Reloaded: ${r.rules.length} rules, hash ${r.ruleset.hash.slice(0, 16)}…`));
      render(r);
    } catch (e) {
      const r = e instanceof ApiError ? (e.body as Partial<RulesAnswer> & { reload?: { problems?: string[] } }) : undefined;
      fill(reloadNote, h("div", { class: "error" }, h("p", null, "Not reloaded — the previous rules stay in force:"), h("pre", null, (r?.reload?.problems ?? [String(e)]).join("\n"))));
      if (r?.rules) render(r as RulesAnswer);
    } finally {
      reload.disabled = false;
    }
  }

  return { id: "rules", title: "Rules", root, ...refreshing(load) };
}
