// Each game's table drawn from a view: the public table, the viewer's own cards, and for
// every legal action the things on the table it involves (a card, a slot, a pile), so that
// clicking one of them offers exactly the actions the view listed with it.
import type { Action, GameView, Schemas } from "./client";
import { back, canyonCard, trashCard, trickCard, type CanyonCard, type TrickCard } from "./cards";
import type { Names } from "./describe";
import { slotName } from "./describe";
import { h } from "./dom";

/** The keys of the things an action uses: `hand:<card>`, `slot:<seat>:<n>`, `pile:<name>`,
 *  `load:<seat>:<n>`. Actions using none are offered as buttons only. */
export function involves(action: Action): string[] {
  switch (action.type) {
    case "play_set": {
      const keys = action.numbers ? [`hand:${action.value}`] : [];
      return (action.jokers ?? 0) > 0 ? [...keys, "hand:joker"] : keys;
    }
    case "play_donkey": return ["hand:donkey"];
    case "play_ox": return ["hand:ox"];
    case "play_card": return [`hand:${action.card}`];
    case "load": return action.cards.map((c) => `hand:${c}`);
    case "favour": return [`hand:${action.card}`];
    case "exchange": return [`hand:${action.card}`];
    case "look": return [`load:${action.seat}:${action.slot ?? 0}`];
    case "draw": return [`pile:${action.source}`];
    case "place_wild": return [`slot:mine:${action.slot}`];
    default: return [];
  }
}

export interface Board {
  element: HTMLElement;
}

type Pick = (key: string) => void;

/** A thing to click when some legal action uses it, else a plain picture. */
function clickable(el: HTMLElement, key: string, usable: Set<string>, pick: Pick | null,
                   what: string): HTMLElement {
  if (!pick || !usable.has(key)) return el;
  return h("button", { class: "pick", type: "button", "data-key": key,
                       "aria-label": what, onclick: () => pick(key) }, el);
}

export function drawBoard(view: GameView, names: Names, pick: Pick | null): HTMLElement {
  const usable = new Set(view.legal_actions.flatMap((a) => involves(a as Action)));
  if (view.game === null) return h("p", { class: "board" }, "The cards are dealt when every seat is taken.");
  switch (view.type) {
    case "ochs-und-esel":
    case "crazy-donkey":
      return trickBoard(view.game, view.you, names, usable, pick);
    case "trash":
      return trashBoard(view.game, view.you, names, usable, pick);
    case "canyon-donkeys":
      return canyonBoard(view.game, view.you, names, usable, pick);
  }
}

// --- Ochs & Esel, Crazy Donkey -----------------------------------------------------------
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

// --- Trash ---------------------------------------------------------------------------------
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

// --- The canyon ------------------------------------------------------------------------------
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
