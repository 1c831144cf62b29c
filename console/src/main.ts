import { follow, takeTokenFromUrl, token, whenUnauthorized } from "./api.js";
import { h } from "./dom.js";
import { approvalsView } from "./approvals.js";
import { liveView } from "./live.js";
import { overviewView } from "./overview.js";
import { playgroundView } from "./playground.js";
import { rulesView } from "./rules.js";
import { sessionsView } from "./sessions.js";
import { closeDetails, type View } from "./view.js";

takeTokenFromUrl();
const main = document.getElementById("main") as HTMLElement;
const tabs = document.getElementById("tabs") as HTMLElement;
const status = document.getElementById("status") as HTMLElement;

/** Asked once per tab; kept in sessionStorage (gone with the tab), sent as a bearer token, never as a cookie. */
function askToken(message?: string): void {
  tabs.replaceChildren();
  const input = h("input", { type: "password", name: "token", placeholder: "admin token" });
  const form = h(
    "form",
    {
      id: "login",
      on: {
        submit: (e) => {
          e.preventDefault();
          if (!input.value.trim()) return;
          token.set(input.value.trim());
          location.reload();
        },
      },
    },
    h("h2", null, "Admin token"),
    h("p", { class: "muted" }, "guardwire console prints a link that carries it; or find it in the admin file (~/.guardwire/admin.json)."),
    message ? h("p", { class: "error" }, message) : null,
    input,
    h("button", { type: "submit" }, "Open"),
  );
  main.replaceChildren(form);
  status.textContent = "";
  status.className = "status";
}

function start(): void {
  const live = liveView();
  const pending = h("span", { class: "count", id: "approvals-count", hidden: true, attrs: { "aria-label": "approvals waiting" } });
  const counted = (n: number) => {
    pending.textContent = String(n);
    pending.hidden = n === 0;
    document.title = n > 0 ? `(${n}) guardwire console` : "guardwire console";
  };
  const views: View[] = [
    overviewView(),
    live,
    sessionsView((id) => {
      live.onlySession(id);
      show("live");
    }),
    approvalsView(counted),
    rulesView(),
    playgroundView(),
  ];
  let current: View | undefined;
  const buttons = new Map<string, HTMLButtonElement>();
  const show = (id: string) => {
    const view = views.find((v) => v.id === id) ?? (views[0] as View);
    if (current === view) return;
    current?.hide?.();
    current = view;
    closeDetails();
    for (const [vid, b] of buttons) {
      b.classList.toggle("active", vid === view.id);
      if (vid === view.id) b.setAttribute("aria-current", "page");
      else b.removeAttribute("aria-current");
    }
    main.replaceChildren(view.root);
    view.show?.();
    history.replaceState(null, "", `#${view.id}`);
  };
  for (const v of views) {
    const b = h("button", { type: "button", id: `tab-${v.id}`, on: { click: () => show(v.id) } }, v.title, v.id === "approvals" ? pending : null);
    buttons.set(v.id, b);
    tabs.append(b);
  }
  whenUnauthorized(() => {
    token.clear();
    askToken("The token was refused.");
  });
  follow(
    (name, data) => {
      for (const v of views) v.event?.(name, data);
    },
    (live) => {
      status.textContent = live ? "live" : "reconnecting…";
      status.className = live ? "status live" : "status";
    },
  );
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") closeDetails();
  });
  show(location.hash.slice(1) || "overview");
}

if (token.get()) start();
else askToken();
