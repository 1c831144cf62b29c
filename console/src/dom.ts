/**
 * The one way this page makes elements. Wire data only ever becomes text (strings turn into text nodes, attributes
 * are set as properties of a known list); nothing here parses HTML, so a message holding markup shows as markup.
 */
export type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  title?: string;
  type?: string;
  value?: string;
  placeholder?: string;
  name?: string;
  disabled?: boolean;
  checked?: boolean;
  selected?: boolean;
  rows?: number;
  hidden?: boolean;
  for?: string;
  id?: string;
  tabIndex?: number;
  /** ARIA and other attributes set with setAttribute (names are the page's own, never wire data). */
  attrs?: Record<string, string>;
  data?: Record<string, string>;
  on?: Partial<{ [K in keyof HTMLElementEventMap]: (e: HTMLElementEventMap[K]) => void }>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (props) {
    const { class: cls, data, on, for: htmlFor, attrs, ...rest } = props;
    if (cls) e.className = cls;
    if (htmlFor && e instanceof HTMLLabelElement) e.htmlFor = htmlFor;
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) (e as unknown as Record<string, unknown>)[k] = v;
    for (const [k, v] of Object.entries(data ?? {})) e.dataset[k] = v;
    for (const [k, v] of Object.entries(attrs ?? {})) e.setAttribute(k, v);
    for (const [k, f] of Object.entries(on ?? {})) e.addEventListener(k, f as EventListener);
  }
  append(e, children);
  return e;
}

export function append(parent: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

/** Replaces an element's children. */
export function fill(parent: Node, ...children: Child[]): void {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  append(parent, children);
}

const SVG = "http://www.w3.org/2000/svg";
export function svg(tag: string, attrs: Record<string, string | number> = {}, ...children: Child[]): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  append(e, children);
  return e;
}

export function select(value: string, options: [string, string][], on: (v: string) => void, name?: string, label?: string): HTMLSelectElement {
  const s = h("select", { name, attrs: label ? { "aria-label": label } : undefined, on: { change: () => on(s.value) } }, ...options.map(([v, text]) => h("option", { value: v, selected: v === value }, text)));
  return s;
}

/**
 * Makes something that is not a button (a table row, a cell) reachable with Tab and worked with Enter or Space, as a
 * button is; `label` says what it does to a screen reader.
 */
export function activatable<E extends HTMLElement>(e: E, run: () => void, label?: string): E {
  e.tabIndex = 0;
  e.setAttribute("role", "button");
  if (label) e.setAttribute("aria-label", label);
  e.addEventListener("click", (ev) => {
    // A button or input inside does its own work.
    if ((ev.target as HTMLElement).closest("button, input, select, a") && ev.target !== e) return;
    run();
  });
  e.addEventListener("keydown", (ev) => {
    if (ev.target !== e || (ev.key !== "Enter" && ev.key !== " ")) return;
    ev.preventDefault();
    run();
  });
  return e;
}

/** A session id as the tables show it: the first 8 characters of a long one (the full id in its title). */
export function shortId(id: string): string {
  return id.length > 12 ? id.slice(0, 8) : id;
}

export function time(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString([], { hour12: false });
}

export function badge(decision: string): HTMLElement {
  return h("span", { class: `badge ${decision.replace(/[^a-z]/g, "")}` }, decision);
}
