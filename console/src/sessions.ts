import { api, ApiError } from "./api.js";
import { fill, h, select, time } from "./dom.js";
import { errorLine, fields, openDetails, refreshing, type View } from "./view.js";

/** SessionInfo of the Sessions API (docs/console.md, ADMIN contract). */
interface Session {
  id: string;
  route: string;
  transport: string;
  protocol: string;
  agent: string | null;
  client: { name: string; version: string } | null;
  server: { name: string; version: string } | null;
  started: string;
  lastActivity: string;
  messages: { outbound: number; inbound: number };
  denies: number;
  held: number;
  state: "active" | "suspended";
  suspend?: { mode: "hold" | "refuse"; reason?: string; since: string };
}

export function sessionsView(): View {
  const sessions = new Map<string, Session>();
  const body = h("tbody");
  const note = h("div");
  const root = h(
    "section",
    { id: "view-sessions" },
    h("p", { class: "muted" }, "Live sessions. Suspend holds or refuses new messages; kill closes the session."),
    note,
    h(
      "table",
      { class: "grid", id: "sessions-table" },
      h("thead", null, h("tr", null, ...["route", "agent", "client", "server", "transport", "started", "last activity", "out / in", "denies", "held", "state", ""].map((c) => h("th", null, c)))),
      body,
    ),
  );

  async function act(s: Session, action: "suspend" | "resume" | "kill", body: Record<string, unknown>, error: HTMLElement): Promise<void> {
    try {
      const r = await api<{ session: Session; killed?: boolean }>("POST", `/api/sessions/${encodeURIComponent(s.id)}/${action}`, body);
      if (r.killed) sessions.delete(s.id);
      else sessions.set(r.session.id, r.session);
      render();
    } catch (e) {
      fill(error, errorLine(e));
    }
  }

  /** The actions cell is made once per session and state, so a reason being typed or an armed kill survive refreshes. */
  function actionsCell(s: Session): HTMLTableCellElement {
    const error = h("span");
    const reason = h("input", { name: "reason", placeholder: "reason", class: "short" });
    let mode = "hold";
    const modes = select("hold", [["hold", "hold"], ["refuse", "refuse"]], (v) => (mode = v), "mode");
    const kill = h("button", { type: "button", class: "deny", on: { click: () => confirmKill() } }, "Kill");
    // Two steps instead of confirm(): a dialog would block the page.
    const confirmKill = () => {
      if (kill.dataset.armed) return void act(s, "kill", { reason: reason.value || undefined }, error);
      kill.dataset.armed = "1";
      kill.textContent = "Confirm kill";
    };
    const actions =
      s.state === "active"
        ? [modes, h("button", { type: "button", on: { click: () => void act(s, "suspend", { mode, reason: reason.value || undefined }, error) } }, "Suspend")]
        : [h("button", { type: "button", class: "approve", on: { click: () => void act(s, "resume", {}, error) } }, "Resume")];
    return h("td", { class: "actions" }, ...actions, reason, kill, error);
  }

  function infoCells(s: Session): HTMLTableCellElement[] {
    const peer = (p: { name: string; version: string } | null) => (p ? `${p.name} ${p.version}`.trim() : "");
    const shown: [string, string][] = Object.entries(s).map(([k, v]) => [k, typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)]);
    return [
      h("td", { class: "clickable", title: "details", on: { click: () => openDetails(`session ${s.id}`, fields(shown)) } }, s.route),
      h("td", null, s.agent ?? ""),
      h("td", null, peer(s.client)),
      h("td", null, peer(s.server)),
      h("td", null, `${s.transport} · ${s.protocol}`),
      h("td", { title: s.started }, time(s.started)),
      h("td", { title: s.lastActivity }, time(s.lastActivity)),
      h("td", null, `${s.messages.outbound} / ${s.messages.inbound}`),
      h("td", null, s.denies),
      h("td", null, s.held),
      h("td", null, s.state === "suspended" ? `suspended (${s.suspend?.mode ?? ""})${s.suspend?.reason ? ": " + s.suspend.reason : ""}` : "active"),
    ];
  }

  const rows = new Map<string, { tr: HTMLTableRowElement; actions: HTMLTableCellElement; state: string; info: string }>();
  function render(): void {
    for (const [id, r] of rows) {
      if (sessions.has(id)) continue;
      r.tr.remove();
      rows.delete(id);
    }
    [...sessions.values()]
      .sort((a, b) => b.started.localeCompare(a.started))
      .forEach((s, i) => {
        let r = rows.get(s.id);
        if (!r || r.state !== s.state) {
          const actions = actionsCell(s);
          const tr = h("tr", { data: { session: s.id, state: s.state } }, actions);
          r?.tr.replaceWith(tr);
          r = { tr, actions, state: s.state, info: "" };
          rows.set(s.id, r);
        }
        const info = JSON.stringify(s);
        if (r.info !== info) {
          r.info = info;
          while (r.tr.firstElementChild && r.tr.firstElementChild !== r.actions) r.tr.firstElementChild.remove();
          r.actions.before(...infoCells(s));
        }
        if (body.children[i] !== r.tr) body.insertBefore(r.tr, body.children[i] ?? null);
      });
    if (sessions.size === 0 && !note.firstChild) fill(note, h("p", { class: "empty" }, "No live sessions."));
    else if (sessions.size > 0) fill(note);
  }

  async function load(): Promise<void> {
    try {
      const r = await api<{ sessions: Session[] }>("GET", "/api/sessions");
      sessions.clear();
      for (const s of r.sessions) sessions.set(s.id, s);
      fill(note);
      render();
    } catch (e) {
      fill(note, e instanceof ApiError && e.status === 404 ? h("p", { class: "empty" }, "This guardwire has no sessions API.") : errorLine(e));
    }
  }

  return {
    id: "sessions",
    title: "Sessions",
    root,
    // Events bring state changes at once; message counts and last activity are read again every few seconds.
    ...refreshing(load),
    event(name, data) {
      const s = (data as { session?: Session }).session;
      if (!s || !name.startsWith("session.")) return;
      if (name === "session.closed") sessions.delete(s.id);
      else sessions.set(s.id, s);
      render();
    },
  };
}
