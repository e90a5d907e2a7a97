// The page's languages: English (the messages' ids), French and German from JSON catalogs
// (web/src/locales/<lang>.json, served beside the script and read in parallel with the
// page's first API requests). The language is the one chosen here, else the browser's
// first of en/fr/de; the API is asked for the same (Accept-Language), so that what the
// server says about a game reads in it too.
export type Lang = "en" | "fr" | "de";
export const LANGUAGES: Record<Lang, string> = { en: "English", fr: "Français", de: "Deutsch" };
const KEY = "donkeypost.lang.v1";

function chosen(): Lang {
  try {
    const kept = localStorage.getItem(KEY);
    if (kept && kept in LANGUAGES) return kept as Lang;
  } catch { /* no storage: the browser's languages */ }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.slice(0, 2).toLowerCase();
    if (base in LANGUAGES) return base as Lang;
  }
  return "en";
}

export const lang: Lang = chosen();
let catalog: Record<string, string> = {};

/** Resolves once the catalog is read (at once in English; English if it cannot be read). */
export const ready: Promise<void> = lang === "en" ? Promise.resolve()
  : fetch(`locales/${lang}.json`).then((r) => r.json() as Promise<Record<string, string>>)
    .then((c) => { catalog = c; }, () => undefined);

type Params = Record<string, string | number>;

/** The message in the page's language, its `{name}` placeholders filled. Its id must be a
 *  literal string (a test extracts them all and requires each translated). */
export function t(msgid: string, params?: Params): string {
  const text = catalog[msgid] ?? msgid;
  return params ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m)) : text;
}

/** A message with a count: the singular or plural form as the language has them. */
export function tn(one: string, other: string, n: number, params?: Params): string {
  const singular = lang === "fr" ? n <= 1 : n === 1;
  return t(singular ? one : other, { n, ...params });
}

export function setLanguage(next: Lang): void {
  try {
    localStorage.setItem(KEY, next);
  } catch { /* kept for this page only */ }
  location.reload();
}

/** Names joined as the language joins them ("Ann and Bob", "Ann et Bob", "Ann und Bob"). */
export function listed(items: string[]): string {
  return new Intl.ListFormat(lang, { type: "conjunction" }).format(items);
}
