import { api } from "./api.js";
import { fill, h, select } from "./dom.js";
import { errorLine, liveList, type View } from "./view.js";

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
  replica?: string;
  /** The call's arguments, redacted as the log's preview is (absent for an approval held by another replica). */
  arguments?: string;
}

const SCOPES = ["once", "session", "always"] as const;
/** The operator's choice, kept in this browser (not a secret): notify of new approvals or not. */
const NOTIFY = "guardwire.notify";

/** The held approvals; `counted` is told how many are waiting whenever that changes (the tab's badge). */
export function approvalsView(counted: (n: number) => void): View {
  const held = new Map<string, Approval>();
  const list = h("div", { class: "cards", id: "approvals-list" });
  const note = h("div");
  const notify = h("input", { type: "checkbox", name: "notify", id: "approvals-notify", checked: localStorage.getItem(NOTIFY) === "1", on: { change: () => void setNotify(notify.checked) } });
  const notifyNote = h("span", { class: "muted", id: "approvals-notify-note" });
  const root = h(
    "section",
    { id: "view-approvals" },
    h("p", { class: "muted" }, "Messages a rule holds for a person. Approve or deny; the list follows live."),
    h("div", { class: "toolbar" }, h("label", { for: "approvals-notify" }, notify, " notify me of new approvals (browser notification)"), notifyNote),
    note,
    list,
  );
  const left = new Map<string, HTMLElement>();
  let shown = false;

  async function setNotify(on: boolean): Promise<void> {
    if (on && typeof Notification === "undefined") {
      notify.checked = false;
      notifyNote.textContent = "this browser has no notifications";
      return;
    }
    if (on && Notification.permission !== "granted") {
      const p = await Notification.requestPermission();
      if (p !== "granted") {
        notify.checked = false;
        notifyNote.textContent = "notifications are blocked for this page (the browser's site settings)";
        localStorage.removeItem(NOTIFY);
        return;
      }
    }
    notifyNote.textContent = "";
    if (on) localStorage.setItem(NOTIFY, "1");
    else localStorage.removeItem(NOTIFY);
  }

  /** A notification for a new approval, unless the person is looking at this list already. */
  function announce(a: Approval): void {
    if (!notify.checked || typeof Notification === "undefined" || Notification.permission !== "granted") return;
    if (shown && document.visibilityState === "visible") return;
    const n = new Notification(`guardwire: approval needed (${a.tool ?? a.method ?? a.route})`, { body: a.prompt, tag: a.id });
    n.onclick = () => {
      window.focus();
      document.getElementById("tab-approvals")?.click();
      n.close();
    };
  }

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
    const reason = h("input", { name: "reason", placeholder: "reason (logged; shown to the agent on a deny)", attrs: { "aria-label": "reason" } });
    const scopes = SCOPES.slice(0, SCOPES.indexOf(a.remember) + 1);
    let remember = "once";
    const scope = select("once", scopes.map((s) => [s, `remember: ${s}`]), (v) => (remember = v), "remember", "remember this approval");
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
    const what = a.tool ? `${a.method} ${a.tool}` : (a.method ?? "");
    return h(
      "div",
      { class: "card", data: { approval: a.id }, attrs: { role: "group", "aria-label": `approval ${what}` } },
      h("div", { class: "card-head" }, h("strong", null, what), " ", timer),
      h("p", { class: "prompt" }, a.prompt),
      a.arguments !== undefined
        ? h("div", null, h("div", { class: "muted" }, "arguments (redacted)"), h("pre", { class: "arguments" }, pretty(a.arguments)))
        : h("p", { class: "muted arguments-missing" }, a.replica ? `arguments: held on replica ${a.replica}, not shown here` : "arguments: not available on this guardwire"),
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
    counted(held.size);
    tick();
  }

  function remove(id: string): void {
    if (held.delete(id)) render();
  }

  const stream = liveList<[string, Approval]>(([name, a]) => {
    if (name === "approval.requested") held.set(a.id, a);
    else held.delete(a.id);
  });

  async function load(): Promise<void> {
    try {
      await stream.read(
        () => api<{ approvals: Approval[] }>("GET", "/api/approvals"),
        (r) => {
          held.clear();
          for (const a of r.approvals) held.set(a.id, a);
        },
      );
      render();
    } catch (e) {
      fill(note, errorLine(e));
    }
  }
  // Loaded at once, not when first shown: the tab's badge counts what waits from the start.
  void load();

  return {
    id: "approvals",
    title: "Approvals",
    root,
    show: () => {
      shown = true;
      void load();
    },
    hide: () => (shown = false),
    event(name, data) {
      const a = (data as { approval?: Approval }).approval;
      if (!a || (name !== "approval.requested" && name !== "approval.decided")) return;
      const fresh = name === "approval.requested" && !held.has(a.id);
      stream.event([name, a]);
      render();
      if (fresh) announce(a);
    },
  };
}

/** The redacted preview is JSON when it was not cut: shown indented. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
