import { api } from "./api.js";
import { fill, h, select } from "./dom.js";
import { errorLine, type View } from "./view.js";

interface Approval {
  id: string;
  session: string;
  route: string;
  agent: string | null;
  server: string | null;
  method: string | null;
  tool: string | null;
  rule: string;
  prompt: string;
  remember: "once" | "session" | "always";
  onTimeout: "deny" | "allow";
  requestedAt: string;
  expiresAt: string;
}

const SCOPES = ["once", "session", "always"] as const;

export function approvalsView(): View {
  const held = new Map<string, Approval>();
  const list = h("div", { class: "cards", id: "approvals-list" });
  const note = h("div");
  const root = h("section", { id: "view-approvals" }, h("p", { class: "muted" }, "Messages a rule holds for a person. Approve or deny; the list follows live."), note, list);
  const left = new Map<string, HTMLElement>();

  const tick = () => {
    for (const [id, el] of left) {
      const a = held.get(id);
      if (!a) continue;
      const s = Math.max(0, Math.round((Date.parse(a.expiresAt) - Date.now()) / 1000));
      el.textContent = `${s}s left, then ${a.onTimeout}`;
    }
  };
  setInterval(tick, 1000);

  function card(a: Approval): HTMLElement {
    const reason = h("input", { name: "reason", placeholder: "reason (logged; shown to the agent on a deny)" });
    const scopes = SCOPES.slice(0, SCOPES.indexOf(a.remember) + 1);
    let remember = "once";
    const scope = select("once", scopes.map((s) => [s, `remember: ${s}`]), (v) => (remember = v), "remember");
    const error = h("div");
    const decide = async (action: "approve" | "deny") => {
      try {
        await api("POST", `/api/approvals/${encodeURIComponent(a.id)}/${action}`, { reason: reason.value || undefined, remember: action === "approve" ? remember : undefined, by: "console" });
        remove(a.id);
      } catch (e) {
        fill(error, errorLine(e));
      }
    };
    const timer = h("span", { class: "muted" });
    left.set(a.id, timer);
    return h(
      "div",
      { class: "card", data: { approval: a.id } },
      h("div", { class: "card-head" }, h("strong", null, a.tool ? `${a.method} ${a.tool}` : (a.method ?? "")), " ", timer),
      h("p", { class: "prompt" }, a.prompt),
      h("div", { class: "muted" }, `route ${a.route}`, a.agent ? ` · agent ${a.agent}` : "", ` · rule ${a.rule} · session ${a.session} · id ${a.id}`),
      h(
        "div",
        { class: "toolbar" },
        reason,
        scope,
        h("button", { type: "button", class: "approve", on: { click: () => void decide("approve") } }, "Approve"),
        h("button", { type: "button", class: "deny", on: { click: () => void decide("deny") } }, "Deny"),
      ),
      error,
    );
  }

  // Cards are added and removed one by one, so a reason being typed survives other approvals coming and going.
  const cards = new Map<string, HTMLElement>();
  function render(): void {
    for (const [id, el] of cards) {
      if (held.has(id)) continue;
      el.remove();
      cards.delete(id);
      left.delete(id);
    }
    for (const a of held.values()) {
      if (cards.has(a.id)) continue;
      const el = card(a);
      cards.set(a.id, el);
      list.append(el);
    }
    fill(note, held.size === 0 ? h("p", { class: "empty" }, "Nothing is waiting for approval.") : null);
    tick();
  }

  function remove(id: string): void {
    if (held.delete(id)) render();
  }

  async function load(): Promise<void> {
    try {
      const r = await api<{ approvals: Approval[] }>("GET", "/api/approvals");
      held.clear();
      for (const a of r.approvals) held.set(a.id, a);
      render();
    } catch (e) {
      fill(note, errorLine(e));
    }
  }

  return {
    id: "approvals",
    title: "Approvals",
    root,
    show: () => void load(),
    event(name, data) {
      const a = (data as { approval?: Approval }).approval;
      if (!a) return;
      if (name === "approval.requested") {
        held.set(a.id, a);
        render();
      } else if (name === "approval.decided") remove(a.id);
    },
  };
}
