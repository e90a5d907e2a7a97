// The trick games' board (Ochs & Esel and Crazy Donkey share one engine and one table):
// the trick on the table, the donkey and the ox, each seat's counts, the viewer's hand.
import type { Action, GameView, Schemas } from "../client";
import { trickCard, type TrickCard } from "../cards";
import type { Names } from "../describe";
import { h } from "../dom";
import { clickable, usableKeys, type GameBoard, type Pick } from "./board";

export function trickInvolves(action: Action): string[] {
  switch (action.type) {
    case "play_set": {
      const keys = action.numbers ? [`hand:${action.value}`] : [];
      return (action.jokers ?? 0) > 0 ? [...keys, "hand:joker"] : keys;
    }
    case "play_donkey": return ["hand:donkey"];
    case "play_ox": return ["hand:ox"];
    case "play_card": return [`hand:${action.card}`];
    default: return [];
  }
}

export const trickGame: GameBoard = {
  involves: trickInvolves,
  draw: (view: GameView, names: Names, pick: Pick | null) =>
    trickBoard(view.game as Schemas["TrickTable"], view.you, names, usableKeys(view, trickGame), pick),
};

function trickBoard(t: Schemas["TrickTable"], you: number | null, names: Names,
                    usable: Set<string>, pick: Pick | null): HTMLElement {
  const trick = t.trick;
  const plays = trick.plays.map((p) => h("li", {}, h("span", { class: "who" }, names(p.seat)), " ",
    p.action === "pass" ? h("span", { class: "pass" }, "passed")
      : h("span", { class: "cards" }, (p.cards ?? (p.card ? [p.card] : [])).map((c) => trickCard(c)))));
  const beat = trick.high !== null && trick.kind === "normal"
    ? `to beat: ${trick.count} × ${trick.high}${trick.high_seat !== null ? ` (${names(trick.high_seat)})` : ""}`
    : trick.kind !== "normal" ? `a ${trick.kind} trick: one card each` : "a new trick: lead any set";
  const donkey = t.specials.donkey;
  const whose = (seat: number) => (seat === you ? "your" : `${names(seat)}'s`);
  const where = (s: Schemas["TrickSpecial"], what: string) => h("li", {},
    `The ${what}: ${s.where === "hand" && s.seat !== null ? `in ${whose(s.seat)} hand`
      : s.where === "pile" && s.seat !== null ? `in ${whose(s.seat)} pile` : `on the ${s.where}`}`,
    s.locked ? ` (may be played from trick ${s.playable_from_trick})` : "");
  const seats = Array.from({ length: t.players }, (_, s) => h("li", { class: s === t.to_act ? "to-act" : "" },
    h("span", { class: "who" }, names(s)), ` ${t.hand_sizes[s]} cards · pile ${t.penalty_piles[s].count} · total ${t.totals[s]}`,
    t.known_cards[s].length ? h("span", { class: "known" }, " · known: ", t.known_cards[s].map((c) => trickCard(c, "small"))) : ""));
  const hand = (t.hand ?? []).slice().sort(order).map((c) =>
    clickable(trickCard(c), `hand:${c}`, usable, pick, `play ${c}`));
  return h("div", { class: "board trick-board" },
    h("p", { class: "round" }, `Round ${t.round} of ${t.rounds}${t.ox_variant ? " · ox variant" : ""} · trick ${trick.number}`),
    h("section", { class: "trick", "aria-label": "the trick on the table" },
      h("p", {}, beat), h("ol", { class: "plays" }, plays)),
    t.centre.length ? h("p", { class: "centre" }, "Centre: ", t.centre.map((c) => trickCard(c, "small"))) : "",
    h("ul", { class: "specials" }, where(donkey, "donkey"), t.specials.ox ? where(t.specials.ox, "ox") : ""),
    h("ul", { class: "seat-stats", "aria-label": "players" }, seats),
    you !== null && t.hand ? h("section", { class: "hand", "aria-label": "your hand" },
      h("h3", {}, "Your hand"), h("div", { class: "cards" }, hand)) : "",
    t.hands ? h("section", { class: "all-hands" }, h("h3", {}, "Every hand"),
      t.hands.map((cards, s) => h("p", {}, names(s), ": ", cards.map((c) => trickCard(c, "small"))))) : "");
}

function order(a: TrickCard, b: TrickCard): number {
  const rank = (c: TrickCard) => typeof c === "number" ? c : { joker: 20, donkey: 21, ox: 22 }[c];
  return rank(a) - rank(b);
}
