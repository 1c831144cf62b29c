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

/** The side panel: one thing's details at a time. */
export function openDetails(title: string, ...content: Node[]): void {
  const aside = document.getElementById("details") as HTMLElement;
  aside.replaceChildren(h("div", { class: "details-head" }, h("strong", null, title), h("button", { type: "button", class: "close", title: "close", on: { click: closeDetails } }, "×")), ...content);
  aside.hidden = false;
}

export function closeDetails(): void {
  const aside = document.getElementById("details") as HTMLElement;
  aside.hidden = true;
  aside.replaceChildren();
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
