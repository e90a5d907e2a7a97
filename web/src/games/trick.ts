// The trick games' board (Ochs & Esel and Crazy Donkey share one engine and one table):
// the trick on the table and the last one won, the donkey and the ox, each seat with its
// counts and clock, the viewer's hand fanned with the cards it may play lifted.
import type { Action, GameEvent, GameView, Schemas } from "../client";
import { back, trickCard, trickCardName, type TrickCard } from "../cards";
import { auto, type Names, type Sentences } from "../words";
import { h } from "../dom";
import { t, tn } from "../i18n";
import { clickable, fan, seatClock, usableKeys, type BoardContext, type GameBoard } from "./board";

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

/** The trick games' words, when the server's are not there. */
const SENTENCES: Sentences = {
  round_dealt: (e, n) => `Round ${e.data.round} dealt; ${n(e.data.leader)} leads.`,
  set_played: (e, n) => `${n(e.actor)} played ${e.data.numbers ? `${e.data.numbers} × ${e.data.value}` : ""}${e.data.jokers ? `${e.data.numbers ? " + " : ""}${e.data.jokers} joker${e.data.jokers > 1 ? "s" : ""}` : ""}${auto(e.data)}.`,
  passed: (e, n) => `${n(e.actor)} passed${e.data.forced ? " (nothing to play)" : ""}${auto(e.data)}.`,
  donkey_led: (e, n) => `${n(e.actor)} led the donkey${auto(e.data)}.`,
  ox_led: (e, n) => `${n(e.actor)} led the ox${auto(e.data)}.`,
  card_played: (e, n) => `${n(e.actor)} played ${trickCardName(e.data.card)}${e.data.card === "joker" && e.data.value ? ` as ${e.data.value}` : ""}${auto(e.data)}.`,
  trick_won: (e, n) => `${n(e.data.seat)} won trick ${e.data.trick}.`,
  donkey_taken: (e, n) => `${n(e.data.seat)} took the donkey.`,
  donkey_trick_taken: (e, n) => `${n(e.data.seat)} took the donkey trick.`,
  ox_taken: (e, n) => `${n(e.data.seat)} took the ox.`,
  ox_trick_taken: (e, n) => `${n(e.data.seat)} took the ox trick (${e.data.count} cards).`,
  round_scored: (e) => "penalties" in e.data
    ? `Round ${e.data.round} scored: penalties ${e.data.penalties.join(", ")}.` : "Round scored.",
};

function label(action: Action): string | undefined {
  switch (action.type) {
    case "play_set": {
      const jokers = action.jokers ?? 0;
      const numbers = action.numbers ?? 0;
      const parts = [numbers ? `${numbers} × ${action.value}` : "",
                     jokers ? `${jokers} joker${jokers > 1 ? "s" : ""}` : ""].filter(Boolean);
      return `Play ${parts.join(" + ")}${!numbers ? ` as ${action.value}` : ""}`;
    }
    case "pass": return "Pass";
    case "play_donkey": return "Lead the donkey";
    case "play_ox": return "Lead the ox";
    case "play_card":
      return action.card === "joker" ? `Play the joker as ${action.value ?? 1}`
        : `Play ${trickCardName(action.card)}`;
    default: return undefined;
  }
}

export const trickGame: GameBoard = {
  involves: trickInvolves,
  sentences: SENTENCES,
  label,
  draw: (view: GameView, ctx: BoardContext) => trickBoard(view, ctx),
};

interface Play { seat: number; cards: TrickCard[] | null } // null: passed
interface DoneTrick { winner: number; plays: Play[] }

/** The last trick won, read back from the log (the view holds only the trick being played). */
export function lastTrick(log: readonly GameEvent[]): DoneTrick | null {
  let plays: Play[] = [];
  let last: DoneTrick | null = null;
  for (const ev of log) {
    const seat = ev.actor ?? -1;
    switch (ev.type) {
      case "round_dealt": plays = []; last = null; break;
      case "set_played":
        plays.push({ seat, cards: [...Array<TrickCard>(ev.data.numbers ?? 0).fill(ev.data.value),
                                   ...Array<TrickCard>(ev.data.jokers ?? 0).fill("joker")] });
        break;
      case "passed": plays.push({ seat, cards: null }); break;
      case "donkey_led": plays.push({ seat, cards: ["donkey"] }); break;
      case "ox_led": plays.push({ seat, cards: ["ox"] }); break;
      case "card_played": plays.push({ seat, cards: [ev.data.card] }); break;
      case "trick_won": case "donkey_trick_taken": case "ox_trick_taken":
        last = { winner: ev.data.seat, plays };
        plays = [];
        break;
      default: break;
    }
  }
  return last;
}

function playList(plays: Play[], names: Names, small: string): HTMLElement {
  return h("ol", { class: "plays" }, plays.map((p) => h("li", {}, h("span", { class: "who" }, names(p.seat)), " ",
    p.cards === null ? h("span", { class: "pass" }, t("passed"))
      : h("span", { class: "cards" }, p.cards.map((c) => trickCard(c, small))))));
}

function trickBoard(view: GameView, { names, pick, log }: BoardContext): HTMLElement {
  const tb = view.game as Schemas["TrickTable"];
  const you = view.you;
  const usable = usableKeys(view, trickGame);
  const trick = tb.trick;
  const plays: Play[] = trick.plays.map((p) => ({ seat: p.seat,
    cards: p.action === "pass" ? null : (p.cards ?? (p.card !== undefined && p.card !== null ? [p.card] : [])) as TrickCard[] }));
  const beat = trick.high !== null && trick.kind === "normal"
    ? t("To beat: {count} × {value}", { count: trick.count ?? 0, value: trick.high })
      + (trick.high_seat !== null ? ` (${names(trick.high_seat)})` : "")
    : trick.kind === "donkey" ? t("A donkey trick: one card each, the highest takes them all")
      : trick.kind !== "normal" ? t("An ox trick: one card each")
        : t("A new trick: lead any set");
  const where = (s: Schemas["TrickSpecial"], card: "donkey" | "ox") => {
    const place = s.where === "hand" && s.seat !== null ? (s.seat === you ? t("in your hand") : t("in {name}'s hand", { name: names(s.seat) }))
      : s.where === "pile" && s.seat !== null ? (s.seat === you ? t("in your pile") : t("in {name}'s pile", { name: names(s.seat) }))
        : t("on the table");
    return h("li", {}, trickCard(card, "tiny"), " ", card === "donkey" ? t("The donkey") : t("The ox"), ": ", place,
      s.locked ? ` (${t("may be led from trick {n}", { n: s.playable_from_trick ?? 0 })})` : "");
  };
  const seats = Array.from({ length: tb.players }, (_, s) => {
    const acting = view.to_act.includes(s);
    return h("li", { class: `seat-box${acting ? " to-act" : ""}`, "data-seat": s },
      h("span", { class: "who" }, acting ? h("span", { class: "turn-mark" }, "▶ ") : "", names(s)),
      h("span", { class: "counters" },
        h("span", { class: "counter", title: t("cards in hand") }, back("tiny"), " ", tn("{n} card", "{n} cards", tb.hand_sizes[s])),
        h("span", { class: "counter" }, t("pile {n}", { n: tb.penalty_piles[s].count })),
        h("span", { class: "counter" }, t("{n} points", { n: tb.totals[s] })), seatClock(view, s)),
      tb.known_cards[s].length ? h("span", { class: "known" }, t("known:"), " ", tb.known_cards[s].map((c) => trickCard(c, "tiny"))) : "");
  });
  const done = lastTrick(log);
  const hand = (tb.hand ?? []).slice().sort(order).map((c) =>
    clickable(trickCard(c), `hand:${c}`, usable, pick, t("play {card}", { card: cardWord(c) })));
  return h("div", { class: "board trick-board" },
    h("p", { class: "round" }, t("Round {round} of {rounds}", { round: tb.round, rounds: tb.rounds }),
      tb.ox_variant ? ` · ${t("ox variant")}` : "", ` · ${t("trick {n}", { n: trick.number })}`),
    h("ul", { class: "seat-stats", "aria-label": t("players") }, seats),
    h("div", { class: "felt-middle" },
      h("section", { class: "current-trick", "aria-label": t("the trick on the table") },
        h("p", { class: "beat" }, beat), playList(plays, names, "")),
      done ? h("section", { class: "last-trick", "aria-label": t("the last trick") },
        h("p", {}, t("Last trick, won by {name}", { name: names(done.winner) })), playList(done.plays, names, "small")) : ""),
    tb.centre.length ? h("p", { class: "centre" }, t("Centre:"), " ", tb.centre.map((c) => trickCard(c, "small"))) : "",
    h("ul", { class: "specials" }, where(tb.specials.donkey, "donkey"), tb.specials.ox ? where(tb.specials.ox, "ox") : ""),
    you !== null && tb.hand ? h("section", { class: "hand", "aria-label": t("your hand") },
      h("h3", {}, t("Your hand")), fan(hand)) : "",
    tb.hands ? h("section", { class: "all-hands" }, h("h3", {}, t("Every hand")),
      tb.hands.map((cards, s) => h("p", {}, names(s), ": ", cards.map((c) => trickCard(c, "small"))))) : "");
}

function cardWord(c: TrickCard): string {
  return trickCardName(c);
}

function order(a: TrickCard, b: TrickCard): number {
  const rank = (c: TrickCard) => typeof c === "number" ? c : { joker: 20, donkey: 21, ox: 22 }[c];
  return rank(a) - rank(b);
}
