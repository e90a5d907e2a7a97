// A few lines instead of a framework: elements built from tag, attributes and children.
import { t, tn } from "./i18n";
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h(tag: string, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") el.addEventListener(name.replace(/^on/, ""), value);
    else if (value === true) el.setAttribute(name, "");
    else el.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

export function mount(...children: (Child | Child[])[]): HTMLElement {
  const main = document.getElementById("main")!;
  main.replaceChildren(...children.flat().filter((c): c is Node | string =>
    c !== null && c !== undefined && c !== false).map((c) =>
    c instanceof Node ? c : String(c)));
  return main;
}

/** Said to screen readers (a polite live region). */
export function announce(text: string): void {
  const region = document.getElementById("announce");
  if (region) region.textContent = text;
}

export function when(epochSeconds: number): string {
  const s = Math.round(epochSeconds - Date.now() / 1000);
  if (s <= 0) return t("now");
  if (s < 90) return t("{n} s", { n: s });
  if (s < 5400) return t("{n} min", { n: Math.round(s / 60) });
  if (s < 129600) return t("{n} h", { n: Math.round(s / 3600) });
  return tn("{n} day", "{n} days", Math.round(s / 86400));
}
