import { api, ApiError } from "./api.js";
import { fill, h, select, shortId, time, type Child } from "./dom.js";
import { errorLine, fields, openDetails, liveList, refreshing, type View } from "./view.js";

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
  replicas?: string[];
  messages: { outbound: number; inbound: number };
  denies: number;
  held: number;
  state: "active" | "suspended";
  suspend?: { mode: "hold" | "refuse"; reason?: string; since: string };
  /** The agent has no stream open and no request in flight (Streamable HTTP): since when, and when the session ends. */
  idle?: { since: string; ends: string };
}

const COLUMNS = ["session", "route", "agent", "client", "server", "transport", "started", "last activity", "out / in", "denies", "held", "state", ""];

/** The live sessions; `decisionsOf` shows one session's decisions (the live view, filtered). */
export function sessionsView(decisionsOf: (id: string) => void): View {
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
      h("thead", null, h("tr", null, ...COLUMNS.map((c) => h("th", null, c)))),
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
    const error = h("span", { attrs: { role: "alert" } });
    const reason = h("input", { name: "reason", placeholder: "reason (the agent sees it)", class: "short", attrs: { "aria-label": "reason, shown to the agent and logged" } });
    let mode = "hold";
    const modes = select("hold", [["hold", "hold"], ["refuse", "refuse"]], (v) => (mode = v), "mode", "suspend mode");
    const kill = h("button", { type: "button", class: "deny", on: { click: () => confirmKill() } }, "Kill");
    // Two steps instead of confirm(): a dialog would block the page.
    const confirmKill = () => {
      if (kill.dataset.armed) return void act(s, "kill", { reason: reason.value || undefined, by: "console" }, error);
      kill.dataset.armed = "1";
      kill.textContent = "Confirm kill";
    };
    const actions =
      s.state === "active"
        ? [modes, h("button", { type: "button", on: { click: () => void act(s, "suspend", { mode, reason: reason.value || undefined, by: "console" }, error) } }, "Suspend")]
        : [h("button", { type: "button", class: "approve", on: { click: () => void act(s, "resume", { by: "console" }, error) } }, "Resume")];
    return h("td", { class: "actions", data: { label: "actions" } }, ...actions, reason, kill, error);
  }

  function infoCells(s: Session): HTMLTableCellElement[] {
    const peer = (p: { name: string; version: string } | null) => (p ? `${p.name} ${p.version}`.trim() : "");
    const cell = (label: string, title: string | undefined, ...children: Child[]) => h("td", { title, data: { label } }, ...children);
    const copy = h("button", { type: "button", class: "link", title: `copy ${s.id}`, attrs: { "aria-label": `copy the session id ${s.id}` }, on: { click: () => void copyText(s.id, copy) } }, "copy");
    const id = h(
      "td",
      { class: "session-id", data: { label: "session" } },
      h("button", { type: "button", class: "link mono", title: `${s.id}: its decisions`, on: { click: () => decisionsOf(s.id) } }, shortId(s.id)),
      " ",
      copy,
    );
    const details = h("button", { type: "button", class: "link", title: "details", on: { click: () => openDetails(`session ${s.id}`, sessionFields(s)) } }, s.route);
    return [
      id,
      cell("route", undefined, details),
      cell("agent", undefined, s.agent ?? ""),
      cell("client", undefined, peer(s.client)),
      cell("server", undefined, peer(s.server)),
      cell("transport", undefined, `${s.transport} · ${s.protocol}`),
      cell("started", s.started, time(s.started)),
      cell("last activity", s.lastActivity, time(s.lastActivity)),
      cell("out / in", undefined, `${s.messages.outbound} / ${s.messages.inbound}`),
      cell("denies", undefined, s.denies),
      cell("held", undefined, s.held),
      cell("state", s.idle ? `no stream open and no request in flight since ${s.idle.since}; ends at ${s.idle.ends} unless the agent comes back` : undefined, stateText(s)),
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
          tr.setAttribute("aria-label", `session ${shortId(s.id)} on ${s.route}`);
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

  const stream = liveList<[string, Session]>(([name, s]) => {
    if (name === "session.closed") sessions.delete(s.id);
    else sessions.set(s.id, s);
  });

  async function load(): Promise<void> {
    try {
      await stream.read(
        () => api<{ sessions: Session[] }>("GET", "/api/sessions"),
        (r) => {
          sessions.clear();
          for (const s of r.sessions) sessions.set(s.id, s);
        },
      );
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
      stream.event([name, s]);
      render();
    },
  };
}

/** "active", "idle since 10:02:03 (ends 10:32:03)", or the suspension with its mode and reason. */
export function stateText(s: Pick<Session, "state" | "suspend" | "idle">): string {
  if (s.state === "suspended") return `suspended (${s.suspend?.mode ?? ""})${s.suspend?.reason ? ": " + s.suspend.reason : ""}`;
  if (s.idle) return `idle since ${time(s.idle.since)} (ends ${time(s.idle.ends)})`;
  return "active";
}

function sessionFields(s: Session): HTMLElement {
  const peer = (p: { name: string; version: string } | null) => (p ? `${p.name} ${p.version}`.trim() : null);
  return fields([
    ["session id", s.id],
    ["state", stateText(s)],
    ["route", s.route],
    ["transport", `${s.transport} · ${s.protocol}`],
    ["agent", s.agent],
    ["client", peer(s.client)],
    ["server", peer(s.server)],
    ["started", s.started],
    ["last activity", s.lastActivity],
    ["messages out / in", `${s.messages.outbound} / ${s.messages.inbound}`],
    ["denies", s.denies],
    ["held", s.held],
    ["suspended since", s.suspend?.since],
    ["idle since", s.idle?.since],
    ["ends if still idle", s.idle?.ends],
    ["replicas", s.replicas?.join(", ")],
  ]);
}

/** The clipboard where the page may use it (loopback or HTTPS); else the id is selected for the person to copy. */
async function copyText(text: string, button: HTMLElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "copied";
  } catch {
    const input = h("input", { value: text, class: "short mono", attrs: { readonly: "", "aria-label": "session id" } });
    button.replaceWith(input);
    input.select();
    return;
  }
  setTimeout(() => (button.textContent = "copy"), 1500);
}
