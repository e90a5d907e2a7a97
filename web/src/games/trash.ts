// Trash's board: the stock and the discard, the card in hand, each seat's slots.
import type { Action, GameView, Schemas } from "../client";
import { back, trashCard } from "../cards";
import { slotName, type Names } from "../describe";
import { h } from "../dom";
import { clickable, usableKeys, type GameBoard, type Pick } from "./board";

export const board: GameBoard = {
  involves(action: Action): string[] {
    switch (action.type) {
      case "draw": return [`pile:${action.source}`];
      case "place_wild": return [`slot:mine:${action.slot}`];
      default: return [];
    }
  },
  draw: (view: GameView, names: Names, pick: Pick | null) =>
    trashBoard(view.game as Schemas["TrashTable"], view.you, names, usableKeys(view, board), pick),
};

function trashBoard(t: Schemas["TrashTable"], you: number | null, names: Names,
                    usable: Set<string>, pick: Pick | null): HTMLElement {
  const rows = t.layouts.map((slots, s) => h("section", { class: `layout ${s === t.turn ? "to-act" : ""}`,
                                                          "aria-label": `${names(s)}'s slots` },
    h("h3", {}, names(s), ` · ${t.slots[s]} slots · rounds won ${t.rounds_won[s]}`),
    h("div", { class: "slots" }, slots.map((slot) => h("div", { class: "slot" },
      h("span", { class: "slot-name" }, slotName(slot.slot)),
      clickable(slot.face_up ? trashCard(slot.card) : back(), `slot:${s === you ? "mine" : s}:${slot.slot}`,
                usable, pick, `slot ${slotName(slot.slot)}`))))));
  const top = t.discard.length ? t.discard[t.discard.length - 1] : null;
  return h("div", { class: "board trash-board" },
    h("p", { class: "round" }, `Round ${t.round} · ${t.phase === "over" ? "over" : `${names(t.turn)} to play`}`),
    h("div", { class: "piles" },
      h("div", {}, h("span", { class: "pile-name" }, `Stock (${t.stock.size})`),
        clickable(back(), "pile:stock", usable, pick, "draw from the stock")),
      h("div", {}, h("span", { class: "pile-name" }, "Discard"),
        clickable(top ? trashCard(top) : h("span", { class: "card empty" }, "—"), "pile:discard",
                  usable, pick, "take the discard")),
      h("div", {}, h("span", { class: "pile-name" }, t.turn !== null ? `${names(t.turn)} holds` : "In hand"),
        t.hand ? trashCard(t.hand) : h("span", { class: "card empty" }, "—"))),
    rows);
}
