// The games' own cards, drawn in SVG and CSS (no image files): the trick games' numbered
// cards with the donkey, the ox and the jokers; Trash's playing cards; the canyon's load
// cards (each colour with its own shape, so that colour is never the only sign) and its
// donkeys. Every card says what it is to screen readers (role "img" with its name).
import { h } from "./dom";
import { t } from "./i18n";

export type TrickCard = number | "donkey" | "joker" | "ox";
export type CanyonCard = number[]; // [colour (the seat it belongs to), value]

const SVG = "http://www.w3.org/2000/svg";
type Shape = [string, Record<string, string | number>];

function svg(box: string, shapes: Shape[], extra = ""): SVGSVGElement {
  const el = document.createElementNS(SVG, "svg");
  el.setAttribute("viewBox", box);
  el.setAttribute("aria-hidden", "true");
  el.setAttribute("focusable", "false");
  el.setAttribute("class", `art ${extra}`);
  for (const [tag, attrs] of shapes) {
    const part = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) part.setAttribute(k, String(v));
    el.append(part);
  }
  return el;
}

// A donkey's head from the front (long ears), an ox's (horns), a joker's star.
const DONKEY: Shape[] = [
  ["path", { d: "M8 13 C5 9 4 3 6 1 C8 2 10 7 10.5 11Z M16 13 C19 9 20 3 18 1 C16 2 14 7 13.5 11Z", fill: "#7a6a58" }],
  ["ellipse", { cx: 12, cy: 15, rx: 5.5, ry: 6.5, fill: "#8d7b66" }],
  ["ellipse", { cx: 12, cy: 19.5, rx: 4, ry: 3, fill: "#d9cbb8" }],
  ["circle", { cx: 9.6, cy: 13.5, r: 0.9, fill: "#1d1d1b" }], ["circle", { cx: 14.4, cy: 13.5, r: 0.9, fill: "#1d1d1b" }],
  ["circle", { cx: 10.8, cy: 19.6, r: 0.6, fill: "#1d1d1b" }], ["circle", { cx: 13.2, cy: 19.6, r: 0.6, fill: "#1d1d1b" }],
];
const OX: Shape[] = [
  ["path", { d: "M6.5 10 C3 10 1 7 1.5 3.5 C3 6 5 7 8 7.5Z M17.5 10 C21 10 23 7 22.5 3.5 C21 6 19 7 16 7.5Z", fill: "#efe6d2", stroke: "#6b5a3e", "stroke-width": 0.6 }],
  ["path", { d: "M6 8 C6 6 18 6 18 8 L17 17 C16 21 8 21 7 17Z", fill: "#8a4b2a" }],
  ["ellipse", { cx: 12, cy: 18.5, rx: 4.2, ry: 2.8, fill: "#d8a98c" }],
  ["circle", { cx: 9.5, cy: 11.5, r: 0.9, fill: "#1d1d1b" }], ["circle", { cx: 14.5, cy: 11.5, r: 0.9, fill: "#1d1d1b" }],
  ["circle", { cx: 10.8, cy: 18.6, r: 0.6, fill: "#1d1d1b" }], ["circle", { cx: 13.2, cy: 18.6, r: 0.6, fill: "#1d1d1b" }],
];
const STAR: Shape[] = [["path", { d: "M12 1.5l3.1 6.9 7.4.7-5.6 5 1.7 7.4L12 17.6l-6.6 3.9 1.7-7.4-5.6-5 7.4-.7z", fill: "#7b3fb0" }]];

// The canyon's colours, each with its own shape (colour is never the only sign).
const COLOUR_NAMES = [() => t("red circle"), () => t("blue square"), () => t("green triangle"),
  () => t("yellow diamond"), () => t("purple star"), () => t("teal hexagon"), () => t("pink cross"), () => t("grey heart")];
const SHAPES: Shape[] = [
  ["circle", { cx: 12, cy: 12, r: 9 }],
  ["rect", { x: 4, y: 4, width: 16, height: 16 }],
  ["path", { d: "M12 3 L21 20 L3 20Z" }],
  ["path", { d: "M12 2 L21 12 L12 22 L3 12Z" }],
  STAR[0],
  ["path", { d: "M7 3 L17 3 L22 12 L17 21 L7 21 L2 12Z" }],
  ["path", { d: "M9 3h6v6h6v6h-6v6H9v-6H3V9h6z" }],
  ["path", { d: "M12 21 C4 15 1 10 4 6 C7 2 11 4 12 7 C13 4 17 2 20 6 C23 10 20 15 12 21Z" }],
];

// A card's printed figures are drawn by CSS from `data-text` (not text in the page): a
// card's name is its label alone, and a button holding one is named by what it does.
function printed(cls: string, what: string | Node): HTMLElement {
  return typeof what === "string" ? h("span", { class: cls, "data-text": what, "aria-hidden": "true" })
    : h("span", { class: cls, "aria-hidden": "true" }, what);
}

function face(kind: string, label: string, corner: string | Node, middle: Node | string, extra: string): HTMLElement {
  return h("span", { class: `card face ${kind} ${extra}`, role: "img", "aria-label": label },
    printed("corner", corner), printed("pip", middle),
    printed("corner end", typeof corner === "string" ? corner : corner.cloneNode(true)));
}

// --- Ochs & Esel, Crazy Donkey -------------------------------------------------------------
export function trickCardName(card: TrickCard): string {
  return typeof card === "number" ? String(card) : { donkey: t("the donkey"), ox: t("the ox"), joker: t("a joker") }[card];
}

export function trickCard(card: TrickCard, extra: string = ""): HTMLElement {
  if (typeof card === "number") return face(`trick v${card}`, String(card), String(card), String(card), extra);
  const art = { donkey: DONKEY, ox: OX, joker: STAR }[card];
  const word = { donkey: t("Donkey"), ox: t("Ox"), joker: t("Joker") }[card];
  return face(`trick special ${card}`, word, card === "joker" ? "★" : "", h("span", { class: "figure" }, svg("0 0 24 24", art),
    h("span", { class: "word", "data-text": word })), extra);
}

// --- Trash ------------------------------------------------------------------------------------
const SUITS: Record<string, [string, () => string, boolean]> = {
  C: ["♣", () => t("clubs"), false], D: ["♦", () => t("diamonds"), true],
  H: ["♥", () => t("hearts"), true], S: ["♠", () => t("spades"), false],
};
const RANKS: Record<string, () => string> = { A: () => t("ace"), J: () => t("jack"), Q: () => t("queen"),
                                              K: () => t("king"), T: () => "10" };

export function trashCardName(code: string): string {
  const suit = SUITS[code.slice(-1)];
  const rank = code.slice(0, -1);
  return t("{rank} of {suit}", { rank: RANKS[rank]?.() ?? rank, suit: suit ? suit[1]() : code.slice(-1) });
}

export function trashCard(code: string | null, extra: string = ""): HTMLElement {
  if (code === null) return back(extra);
  const suit = SUITS[code.slice(-1)] ?? ["?", () => "", false];
  const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
  const court = "JQK".includes(rank);
  return face(`trash ${suit[2] ? "red" : "black"}${court ? " court" : ""}`, trashCardName(code),
    `${rank}${suit[0]}`, court ? h("span", { class: "figure" }, h("span", { class: "court-letter", "data-text": rank }),
      h("span", { "data-text": suit[0] })) : suit[0],
    extra);
}

// --- The canyon --------------------------------------------------------------------------------
export function colourName(colour: number): string {
  return COLOUR_NAMES[colour % COLOUR_NAMES.length]();
}

export function canyonCardName(card: CanyonCard): string {
  return t("{value} ({colour})", { value: card[1], colour: colourName(card[0]) });
}

const DONKEY_KINDS: Record<string, () => string> = {
  normal: () => t("normal"), giant: () => t("giant"), puny: () => t("puny"), precision: () => t("precision"),
  hurried: () => t("hurried"), holed: () => t("holed"), attacked: () => t("attacked"), lost: () => t("lost"),
  double: () => t("double"), stubborn: () => t("stubborn"), difficult: () => t("difficult"), picky: () => t("picky"),
};

/** A kind of donkey in words (its id if the page does not know it). */
export function donkeyKind(kind: string): string {
  return DONKEY_KINDS[kind]?.() ?? kind;
}

export function canyonCard(card: CanyonCard | null, extra: string = ""): HTMLElement {
  if (card === null) return back(extra);
  const colour = card[0] % SHAPES.length;
  const mark = svg("0 0 24 24", [SHAPES[colour]], "shape");
  return face(`canyon colour-${colour}`, canyonCardName(card), mark, String(card[1]), extra);
}

const DONKEY_MARKS: Record<string, string> = {
  normal: "", giant: "⇑", puny: "⇓", precision: "⌖", hurried: "»", holed: "◌", attacked: "⚔",
  lost: "?", double: "×2", stubborn: "✋", difficult: "⛰", picky: "✂",
};

/** A donkey card of the canyon: the donkey, its kind and what it carries. */
export function donkeyCard(kind: string, capacity: number | null, extra = ""): HTMLElement {
  const mark = DONKEY_MARKS[kind] ?? "";
  const name = t("The {kind} donkey", { kind: donkeyKind(kind) });
  return h("span", { class: `card face donkey-card ${extra}`, role: "img",
                     "aria-label": capacity !== null ? `${name}, ${t("carries {n}", { n: capacity })}` : name },
    printed("corner", mark || "·"),
    printed("pip", h("span", { class: "figure" }, svg("0 0 24 24", DONKEY), h("span", { class: "word", "data-text": donkeyKind(kind) }))),
    printed("corner end", capacity !== null ? String(capacity) : "—"));
}

export function back(extra: string = ""): HTMLElement {
  return h("span", { class: `card back ${extra}`, role: "img", "aria-label": t("face down") });
}
