// Trash's board: the stock and the discard, the card in hand, each seat's row of slots
// (A, 2, 3, …) with its counts and clock.
import type { Action, GameView, Schemas } from "../client";
import { back, trashCard, trashCardName } from "../cards";
import { auto, type Sentences } from "../words";
import { h } from "../dom";
import { t, tn } from "../i18n";
import { clickable, seatClock, usableKeys, type BoardContext, type GameBoard } from "./board";

/** Trash's words, when the server's are not there. */
const SENTENCES: Sentences = {
  round_dealt: (e, n) => `Round ${e.data.round} dealt; ${n(e.data.leader)} starts.`,
  round_void: (e) => `Round ${e.data.round} did not count (${e.data.reason}).`,
  round_won: (e, n) => `${n(e.data.seat)} won round ${e.data.round}${auto(e.data)}.`,
  card_drawn: (e, n) => `${n(e.data.seat)} drew ${e.data.card ? trashCardName(e.data.card) : "a card"} from the ${e.data.source}${auto(e.data)}.`,
  card_placed: (e, n) => `${n(e.data.seat)} put ${trashCardName(e.data.card)} on slot ${slotName(e.data.slot)}${e.data.taken ? ` and took ${trashCardName(e.data.taken)}` : ""}${auto(e.data)}.`,
  card_discarded: (e, n) => `${n(e.data.seat)} discarded ${trashCardName(e.data.card)}${auto(e.data)}.`,
  turn_ended: (e, n) => `${n(e.data.seat)}'s turn ended; ${n(e.data.next)} is next.`,
  turn_passed: (e, n) => `${n(e.data.seat)} passed the turn to ${n(e.data.next)}.`,
  stock_reshuffled: (e) => `The discard was shuffled into a new stock of ${e.data.size}.`,
};

export function slotName(slot: number): string {
  return slot === 1 ? "A" : String(slot);
}

export const board: GameBoard = {
  sentences: SENTENCES,
  label(action: Action): string | undefined {
    switch (action.type) {
      case "draw": return action.source === "stock" ? "Draw from the stock" : "Take the discard";
      case "place_wild": return `Put the wild on slot ${slotName(action.slot)}`;
      case "displace": return "Put your card in place of the wild";
      case "discard": return "Discard";
      default: return undefined;
    }
  },
  involves(action: Action): string[] {
    switch (action.type) {
      case "draw": return [`pile:${action.source}`];
      case "place_wild": return [`slot:mine:${action.slot}`];
      default: return [];
    }
  },
  draw: (view: GameView, ctx: BoardContext) => trashBoard(view, ctx),
};

function trashBoard(view: GameView, { names, pick }: BoardContext): HTMLElement {
  const tb = view.game as Schemas["TrashTable"];
  const you = view.you;
  const usable = usableKeys(view, board);
  const rows = tb.layouts.map((slots, s) => {
    const acting = s === tb.turn && tb.phase !== "over";
    return h("section", { class: `layout seat-box${acting ? " to-act" : ""}`, "data-seat": s,
                          "aria-label": t("{name}'s slots", { name: names(s) }) },
      h("h3", {}, acting ? h("span", { class: "turn-mark" }, "▶ ") : "", names(s),
        h("span", { class: "counters" }, h("span", { class: "counter" }, tn("{n} slot", "{n} slots", tb.slots[s])),
          h("span", { class: "counter" }, tn("{n} round won", "{n} rounds won", tb.rounds_won[s])), seatClock(view, s))),
      h("div", { class: "slots" }, slots.map((slot) => h("div", { class: "slot" },
        clickable(slot.face_up ? trashCard(slot.card, "small") : back("small"), `slot:${s === you ? "mine" : s}:${slot.slot}`,
                  usable, pick, t("slot {slot}", { slot: slotName(slot.slot) })),
        h("span", { class: "slot-name" }, slotName(slot.slot))))));
  });
  const top = tb.discard.length ? tb.discard[tb.discard.length - 1] : null;
  const empty = () => h("span", { class: "card empty", role: "img", "aria-label": t("empty") }, "—");
  return h("div", { class: "board trash-board" },
    h("p", { class: "round" }, t("Round {n}", { n: tb.round }), " · ",
      tb.phase === "over" ? t("over") : t("{name} to play", { name: names(tb.turn) })),
    h("div", { class: "piles" },
      h("div", { class: "pile" }, h("span", { class: "pile-name" }, t("Stock ({n})", { n: tb.stock.size })),
        clickable(back(), "pile:stock", usable, pick, t("draw from the stock"))),
      h("div", { class: "pile" }, h("span", { class: "pile-name" }, t("Discard ({n})", { n: tb.discard.length })),
        clickable(top ? trashCard(top) : empty(), "pile:discard", usable, pick,
                  top ? t("take the {card} from the discard", { card: trashCardName(top) }) : t("take the discard"))),
      h("div", { class: "pile in-hand" }, h("span", { class: "pile-name" },
        tb.turn !== null ? t("{name} holds", { name: names(tb.turn) }) : t("In hand")),
        tb.hand ? trashCard(tb.hand) : empty())),
    rows);
}
