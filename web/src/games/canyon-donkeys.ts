// The Grand Canyon's board: the donkey of the round, each seat's load (its own face up to
// it alone), the cards won, the viewer's hand and the cards a favour let it see.
import type { Action, GameView, Schemas } from "../client";
import { back, canyonCard, type CanyonCard } from "../cards";
import type { Names } from "../describe";
import { h } from "../dom";
import { clickable, usableKeys, type GameBoard, type Pick } from "./board";

export const board: GameBoard = {
  involves(action: Action): string[] {
    switch (action.type) {
      case "load": return action.cards.map((c) => `hand:${c}`);
      case "favour": return [`hand:${action.card}`];
      case "exchange": return [`hand:${action.card}`];
      case "look": return [`load:${action.seat}:${action.slot ?? 0}`];
      default: return [];
    }
  },
  draw: (view: GameView, names: Names, pick: Pick | null) =>
    canyonBoard(view.game as Schemas["CanyonTable"], view.you, names, usableKeys(view, board), pick),
};

function canyonBoard(t: Schemas["CanyonTable"], you: number | null, names: Names,
                     usable: Set<string>, pick: Pick | null): HTMLElement {
  const d = t.donkey;
  const own = t.you;
  const seats = t.seats.map((s) => h("li", { class: t.to_act.includes(s.seat) ? "to-act" : "" },
    h("span", { class: "who" }, names(s.seat)), ` ${s.hand_size} cards · total ${s.total}`,
    s.favour !== null ? ` · favour ${s.favour}` : "", s.contract ? ` · ${s.contract}s the contract` : "",
    h("div", { class: "load", "aria-label": `${names(s.seat)}'s load`, "data-load-seat": s.seat }, "Load: ",
      s.load.length ? s.load.map((card, i) => {
        const mine = own && s.seat === own.seat ? (own.load[i] as CanyonCard | undefined) : undefined;
        const shown = card ? canyonCard(card as CanyonCard) : mine ? canyonCard(mine, "own") : back();
        return clickable(shown, `load:${s.seat}:${i}`, usable, pick, `look at ${names(s.seat)}'s load ${i + 1}`);
      }) : "none yet"),
    s.won.length ? h("div", {}, "Won: ", s.won.map((c) => canyonCard(c as CanyonCard, "small"))) : ""));
  return h("div", { class: "board canyon-board", "data-round": t.round, "data-phase": t.phase },
    h("p", { class: "round" }, `Round ${t.round} · ${t.phase.replace("_", " ")} · ${t.donkeys_left} donkeys left`),
    d ? h("section", { class: "donkey-info", "aria-label": "the donkey" },
      h("span", { class: "card donkey-card" }, d.type),
      h("p", {}, `The ${d.type} donkey${d.effect !== d.type ? ` (acting as ${d.effect})` : ""}`,
        d.capacity !== null ? ` · carries ${d.capacity}` : "", d.gap !== null ? ` · largest gap ${d.gap}` : "",
        ` · ${d.loads_each} load card${d.loads_each > 1 ? "s" : ""} each`)) : "",
    h("ul", { class: "seat-stats", "aria-label": "players" }, seats),
    own ? h("section", { class: "hand", "aria-label": "your hand" }, h("h3", {}, "Your hand"),
      h("div", { class: "cards" }, own.hand.map((v) =>
        clickable(canyonCard([own.seat, v]), `hand:${v}`, usable, pick, `use ${v}`))),
      own.looks.length ? h("p", {}, "You saw: ", own.looks.map((c) => canyonCard(c as CanyonCard, "small"))) : "")
      : you === null ? "" : h("p", {}, "Your cards appear when the round starts."));
}
