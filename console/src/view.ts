import { h } from "./dom.js";

/** One tab of the console. `event` sees every live event, shown or not, so a view is current when it is opened. */
export interface View {
  id: string;
  title: string;
  root: HTMLElement;
  show?(): void;
  hide?(): void;
  event?(name: string, data: unknown): void;
}

/** Where focus was before the details opened: it goes back there when they close. */
let returnFocus: HTMLElement | null = null;

/** The side panel: one thing's details at a time. Focus moves to its close button; Escape closes it. */
export function openDetails(title: string, ...content: Node[]): void {
  const aside = document.getElementById("details") as HTMLElement;
  const close = h("button", { type: "button", class: "close", title: "close (Escape)", attrs: { "aria-label": "close the details" }, on: { click: closeDetails } }, "×");
  aside.replaceChildren(h("div", { class: "details-head" }, h("strong", { id: "details-title" }, title), close), ...content);
  aside.setAttribute("aria-labelledby", "details-title");
  if (aside.hidden) returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  aside.hidden = false;
  close.focus();
}

export function closeDetails(): void {
  const aside = document.getElementById("details") as HTMLElement;
  if (aside.hidden) return;
  aside.hidden = true;
  aside.replaceChildren();
  if (returnFocus?.isConnected) returnFocus.focus();
  returnFocus = null;
}

/** One step of an approval (the log line's `approval`), as fields. */
export function approvalFields(a: Record<string, unknown>): HTMLElement {
  const text = (v: unknown) => (v === undefined || v === null ? null : Array.isArray(v) ? v.join(", ") : String(v));
  const after = typeof a.afterMs === "number" ? `${(a.afterMs / 1000).toFixed(1)} s` : null;
  return fields([
    ["approval id", text(a.id)],
    ["step", text(a.step)],
    ["outcome", text(a.outcome)],
    ["by", text(a.by)],
    ["channel", text(a.channel)],
    ["asked via", text(a.channels)],
    ["reason", text(a.reason)],
    ["remember", text(a.remember)],
    ["decided after", after],
    ["expires", text(a.expires)],
    ["arguments digest", text(a.argsDigest)],
  ]);
}

/** A definition list of fields; values are text. */
export function fields(rows: [string, string | number | null | undefined | Node][]): HTMLElement {
  const dl = h("dl");
  for (const [k, v] of rows) {
    if (v === null || v === undefined || v === "") continue;
    dl.append(h("dt", null, k), h("dd", null, v instanceof Node ? v : String(v)));
  }
  return dl;
}

export function errorLine(e: unknown): HTMLElement {
  return h("p", { class: "error" }, e instanceof Error ? e.message : String(e));
}

/**
 * A list read over HTTP while the live stream changes it. The two come on different connections, so a list asked for
 * before a change can arrive after the change's event: each read keeps the events that come while it waits and
 * applies them again over the list it gets (else a card or row would go back to what it was until the next read).
 */
export function liveList<E>(apply: (e: E) => void): { event(e: E): void; read<T>(get: () => Promise<T>, replace: (list: T) => void): Promise<void> } {
  const reading = new Set<E[]>();
  return {
    event(e) {
      for (const since of reading) since.push(e);
      apply(e);
    },
    async read(get, replace) {
      const since: E[] = [];
      reading.add(since);
      try {
        replace(await get());
        for (const e of since) apply(e);
      } finally {
        reading.delete(since);
      }
    },
  };
}

/** A view that loads when shown and again every few seconds while it stays shown. */
export function refreshing(load: () => Promise<void>, everyMs = 5000): Pick<View, "show" | "hide"> {
  let timer: number | undefined;
  return {
    show() {
      void load();
      timer = window.setInterval(() => void load(), everyMs);
    },
    hide: () => window.clearInterval(timer),
  };
}
