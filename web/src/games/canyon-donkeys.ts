// The Grand Canyon's board: the donkey of the round, each seat with its load (its own face
// up to it alone), its cards won, counts and clock; the viewer's hand and the cards a
// favour let it see.
import type { Action, GameView, Schemas } from "../client";
import { back, canyonCard, canyonCardName, donkeyCard, donkeyKind, type CanyonCard } from "../cards";
import { auto, type Sentences } from "../words";
import { h } from "../dom";
import { t, tn } from "../i18n";
import { clickable, fan, seatClock, usableKeys, type BoardContext, type GameBoard } from "./board";

/** The canyon's words, when the server's are not there. */
const SENTENCES: Sentences = {
  donkeys_drawn: (e) => `${e.data.donkeys} donkeys wait in the canyon.`,
  donkey_revealed: (e) => `Round ${e.data.round}: the ${e.data.donkey} donkey${e.data.capacity ? `, carrying ${e.data.capacity}` : ""} (${e.data.left} left).`,
  donkey_removed: (e) => `A donkey was removed (${e.data.left} left).`,
  load_played: (e, n) => `${n(e.data.seat)} loaded ${e.data.count} card${e.data.count > 1 ? "s" : ""}${e.data.face_up.length ? " face up" : " face down"}${auto(e.data)}.`,
  favour_called: (e, n) => `${n(e.data.seat)} called favour ${e.data.card}${auto(e.data)}.`,
  favour_declined: (e, n) => `${n(e.data.seat)} called no favour${auto(e.data)}.`,
  card_looked: (e, n) => `${n(e.data.seat)} looked at a load of ${n(e.data.target)}${auto(e.data)}.`,
  looks_declined: (e, n) => `${n(e.data.seat)} looked no further${auto(e.data)}.`,
  contract_chosen: (e, n) => `${n(e.data.seat)} ${e.data.accept ? "accepted" : "refused"} the contract${auto(e.data)}.`,
  load_exchanged: (e, n) => `${n(e.data.seat)} exchanged a load card${auto(e.data)}.`,
  exchange_declined: (e, n) => `${n(e.data.seat)} kept their load${auto(e.data)}.`,
  limit_adjusted: (e, n) => `${n(e.data.seat)} ${e.data.delta > 0 ? "raised" : "lowered"} the limit to ${e.data.limit}${auto(e.data)}.`,
  loads_swapped: (e, n) => `${n(e.data.seat)} swapped a load with ${n(e.data.target)}${auto(e.data)}.`,
  swap_declined: (e, n) => `${n(e.data.seat)} swapped nothing${auto(e.data)}.`,
  card_chosen: (e, n) => `${n(e.data.seat)} took ${canyonCardName(e.data.card)}${auto(e.data)}.`,
  loads_revealed: (e) => `The loads were revealed: ${e.data.total}${e.data.overloaded ? ", too heavy!" : ""}.`,
  loads_set_aside: (e) => `The loads of round ${e.data.round} were set aside.`,
  loads_buried: () => "The refused loads were buried.",
  lost_resumed: (e) => `The lost donkey came back (round ${e.data.round}).`,
  round_ended: (e) => `Round ${e.data.round} ended.`,
  round_scored: () => "Round scored.",
};

function withoutType(action: object): object {
  const { type: _type, ...rest } = action as Record<string, unknown>;
  return rest;
}

export const board: GameBoard = {
  sentences: SENTENCES,
  label(action: Action): string | undefined {
    switch (action.type) {
    case "load": return `Load ${action.cards.join(" and ")}`;
    case "favour": return `Call favour ${action.card}`;
    case "no_favour": return "No favour";
    case "look": return `Look at seat ${action.seat + 1}'s load${action.slot ? ` ${action.slot + 1}` : ""}`;
    case "stop_looking": return "Stop looking";
    case "contract": return action.accept ? "Accept the contract" : "Refuse the contract";
    case "exchange": return `Exchange load ${action.load} for ${action.card}`;
    case "adjust": return action.delta > 0 ? `Raise the limit by ${action.delta}`
      : `Lower the limit by ${-action.delta}`;
    case "swap": return `Swap: ${JSON.stringify(withoutType(action))}`;
    case "take": return `Take: ${JSON.stringify(withoutType(action))}`;
    case "keep": return "Keep as it is";
      default: return undefined;
    }
  },
  involves(action: Action): string[] {
    switch (action.type) {
      case "load": return action.cards.map((c) => `hand:${c}`);
      case "favour": return [`hand:${action.card}`];
      case "exchange": return [`hand:${action.card}`];
      case "look": return [`load:${action.seat}:${action.slot ?? 0}`];
      default: return [];
    }
  },
  draw: (view: GameView, ctx: BoardContext) => canyonBoard(view, ctx),
};

const PHASES: Record<string, () => string> = {
  setup: () => t("setting up"), load: () => t("loading"), favours: () => t("favours"), looks: () => t("looking"),
  contract: () => t("the contract"), late_favours: () => t("late favours"), reveal: () => t("the reveal"),
  reward: () => t("rewards"), score: () => t("scoring"), set_aside: () => t("set aside"),
  next_donkey: () => t("the next donkey"), round_end: () => t("end of the round"), over: () => t("over"),
};

function canyonBoard(view: GameView, { names, pick }: BoardContext): HTMLElement {
  const tb = view.game as Schemas["CanyonTable"];
  const usable = usableKeys(view, board);
  const d = tb.donkey;
  const own = tb.you;
  const seats = tb.seats.map((s) => {
    const acting = tb.to_act.includes(s.seat);
    return h("li", { class: `seat-box${acting ? " to-act" : ""}`, "data-seat": s.seat },
      h("span", { class: "who" }, acting ? h("span", { class: "turn-mark" }, "▶ ") : "", names(s.seat)),
      h("span", { class: "counters" },
        h("span", { class: "counter" }, back("tiny"), " ", tn("{n} card", "{n} cards", s.hand_size)),
        h("span", { class: "counter" }, t("{n} points", { n: s.total })),
        s.favour !== null ? h("span", { class: "counter" }, t("favour {n}", { n: s.favour })) : "",
        s.contract ? h("span", { class: `counter contract ${s.contract}` },
          s.contract === "accept" ? `✔ ${t("accepts")}` : `✘ ${t("refuses")}`) : "",
        seatClock(view, s.seat)),
      h("div", { class: "load", "aria-label": t("{name}'s load", { name: names(s.seat) }), "data-load-seat": s.seat },
        h("span", { class: "load-name" }, t("Load:")), " ",
        s.load.length ? s.load.map((card, i) => {
          const mine = own && s.seat === own.seat ? (own.load[i] as CanyonCard | undefined) : undefined;
          const shown = card ? canyonCard(card as CanyonCard, "small") : mine ? canyonCard(mine, "small own") : back("small");
          return clickable(shown, `load:${s.seat}:${i}`, usable, pick,
                           t("look at {name}'s load {n}", { name: names(s.seat), n: i + 1 }));
        }) : t("none yet")),
      s.won.length ? h("div", { class: "won" }, t("Won:"), " ", s.won.map((c) => canyonCard(c as CanyonCard, "tiny"))) : "");
  });
  const phase = PHASES[tb.phase]?.() ?? tb.phase.replace(/_/g, " ");
  return h("div", { class: "board canyon-board", "data-round": tb.round, "data-phase": tb.phase },
    h("p", { class: "round" }, t("Round {n}", { n: tb.round }), ` · ${phase} · `,
      tn("{n} donkey left", "{n} donkeys left", tb.donkeys_left)),
    d ? h("section", { class: "donkey-info", "aria-label": t("the donkey") },
      donkeyCard(d.type, d.capacity),
      h("p", {}, d.effect !== d.type ? t("The {kind} donkey, acting as {effect}", { kind: donkeyKind(d.type), effect: donkeyKind(d.effect) })
        : t("The {kind} donkey", { kind: donkeyKind(d.type) }),
        d.capacity !== null ? ` · ${t("carries {n}", { n: d.capacity })}` : "",
        d.gap !== null ? ` · ${t("largest gap {n}", { n: d.gap })}` : "",
        ` · ${tn("{n} load card each", "{n} load cards each", d.loads_each)}`)) : "",
    h("ul", { class: "seat-stats", "aria-label": t("players") }, seats),
    own ? h("section", { class: "hand", "aria-label": t("your hand") }, h("h3", {}, t("Your hand")),
      fan(own.hand.map((v) => clickable(canyonCard([own.seat, v]), `hand:${v}`, usable, pick, t("use {n}", { n: v })))),
      own.looks.length ? h("p", {}, t("You saw:"), " ", own.looks.map((c) => canyonCard(c as CanyonCard, "small"))) : "")
      : view.you === null ? "" : h("p", {}, t("Your cards appear when the round starts.")));
}
