// Cards drawn as readable text: the value big, its kind in words for screen readers.
import { h } from "./dom";

export type TrickCard = number | "donkey" | "joker" | "ox";
export type CanyonCard = number[]; // [colour (the seat it belongs to), value]

const SUITS: Record<string, [string, string, boolean]> = {
  C: ["♣", "clubs", false], D: ["♦", "diamonds", true],
  H: ["♥", "hearts", true], S: ["♠", "spades", false],
};
const RANKS: Record<string, string> = { A: "ace", J: "jack", Q: "queen", K: "king", T: "10" };

export function trickCardName(card: TrickCard): string {
  return typeof card === "number" ? String(card) : card;
}

export function trickCard(card: TrickCard, extra: string = ""): HTMLElement {
  if (typeof card === "number") {
    return h("span", { class: `card trick ${extra}`, "aria-label": String(card) }, card);
  }
  const face = { donkey: "Donkey", joker: "Joker ★", ox: "Ox" }[card];
  return h("span", { class: `card trick special ${card} ${extra}`, "aria-label": card }, face);
}

export function trashCardName(code: string): string {
  const suit = SUITS[code.slice(-1)];
  const rank = code.slice(0, -1);
  return `${RANKS[rank] ?? rank} of ${suit ? suit[1] : code.slice(-1)}`;
}

export function trashCard(code: string | null, extra: string = ""): HTMLElement {
  if (code === null) return back(extra);
  const suit = SUITS[code.slice(-1)];
  const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
  return h("span", { class: `card trash ${suit?.[2] ? "red" : "black"} ${extra}`,
                     "aria-label": trashCardName(code) }, rank, h("span", { "aria-hidden": "true" },
                                                                    suit?.[0] ?? "?"));
}

export function canyonCardName(card: CanyonCard): string {
  return `${card[1]} (colour ${card[0] + 1})`;
}

export function canyonCard(card: CanyonCard | null, extra: string = ""): HTMLElement {
  if (card === null) return back(extra);
  return h("span", { class: `card canyon colour-${card[0] % 8} ${extra}`,
                     "aria-label": canyonCardName(card) }, card[1]);
}

export function back(extra: string = ""): HTMLElement {
  return h("span", { class: `card back ${extra}`, "aria-label": "face down" }, "");
}
