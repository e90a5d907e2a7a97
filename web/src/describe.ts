// The game in words: action labels for buttons and one sentence per event of the log.
import type { Action, GameEvent } from "./client";
import { canyonCardName, trashCardName, trickCardName } from "./cards";

export type Names = (seat: number | null | undefined) => string;

export function actionLabel(action: Action): string {
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
    case "draw": return action.source === "stock" ? "Draw from the stock" : "Take the discard";
    case "place_wild": return `Put the wild on slot ${slotName(action.slot)}`;
    case "displace": return "Put your card in place of the wild";
    case "discard": return "Discard";
  }
}

function withoutType(action: object): object {
  const { type: _type, ...rest } = action as Record<string, unknown>;
  return rest;
}

export function slotName(slot: number): string {
  return slot === 1 ? "A" : String(slot);
}

const AUTO: Record<string, string> = { timeout: "time ran out", away: "away", forced: "their only move" };
const auto = (d: { auto?: string | null }) =>
  d.auto ? ` (played for them: ${AUTO[d.auto] ?? d.auto})` : "";

type Describers = { [T in GameEvent["type"]]: (e: Extract<GameEvent, { type: T }>, n: Names) => string };

const DESCRIBE: Describers = {
  game_created: (e) => `The table was set for ${e.data.seats.length} players.`,
  player_joined: (e) => `${e.data.name ?? "A player"} sat down at seat ${e.data.seat + 1}.`,
  game_started: () => "The game started.",
  game_cancelled: () => "The game was cancelled.",
  first_player_chosen: (e, n) => `${n(e.data.seat)} goes first${e.data.random ? " (drawn at random)" : ""}.`,
  round_dealt: (e, n) => "hand_sizes" in e.data
    ? `Round ${e.data.round} dealt; ${n(e.data.leader)} leads.`
    : `Round ${e.data.round} dealt; ${n(e.data.leader)} starts.`,
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
    ? `Round ${e.data.round} scored: penalties ${e.data.penalties.join(", ")}.`
    : "Round scored.",
  round_ended: (e) => `Round ${e.data.round} ended.`,
  round_void: (e) => `Round ${e.data.round} did not count (${e.data.reason}).`,
  round_won: (e, n) => `${n(e.data.seat)} won round ${e.data.round}${auto(e.data)}.`,
  game_ended: () => "The game is over.",
  game_finished: () => "The game finished; its seed is revealed.",
  turn_timed_out: (e, n) => `${n(e.data.seat)} ran out of time${e.data.away ? " and is away" : ""}.`,
  vacation_started: (e, n) => `${n(e.data.seat)} is on vacation until ${new Date(e.data.until * 1000).toUTCString()}.`,
  vacation_ended: (e, n) => `${n(e.data.seat)} is back from vacation.`,
  move_taken_back: (e, n) => `${n(e.data.seat)} took back their last move (events ${e.data.first}–${e.data.last}).`,
  forced_moves_set: (e, n) => `${n(e.data.seat)}'s forced moves ${e.data.auto ? "play themselves" : "wait for them"} from now on.`,
  seat_returned: (e, n) => `${n(e.data.seat)} is back.`,
  rematch_created: () => "A rematch was set up.",
  seat_resigned: (e, n) => `${n(e.data.seat)} resigned.`,
  seat_left: (e, n) => `${n(e.data.seat)} left; a ${e.data.level} bot plays on.`,
  abort_voted: (e, n) => `${n(e.data.seat)} voted to abort the game.`,
  abort_vote_withdrawn: (e, n) => `${n(e.data.seat)} withdrew their vote to abort.`,
  game_aborted: () => "The game was aborted.",
  player_erased: (e) => `The player of seat${e.data.seats.length > 1 ? "s" : ""} ${e.data.seats.map((s) => s + 1).join(", ")} erased their account: a deleted player.`,
  // Trash
  card_drawn: (e, n) => `${n(e.data.seat)} drew ${e.data.card ? trashCardName(e.data.card) : "a card"} from the ${e.data.source}${auto(e.data)}.`,
  card_placed: (e, n) => `${n(e.data.seat)} put ${trashCardName(e.data.card)} on slot ${slotName(e.data.slot)}${e.data.taken ? ` and took ${trashCardName(e.data.taken)}` : ""}${auto(e.data)}.`,
  card_discarded: (e, n) => `${n(e.data.seat)} discarded ${trashCardName(e.data.card)}${auto(e.data)}.`,
  turn_ended: (e, n) => `${n(e.data.seat)}'s turn ended; ${n(e.data.next)} is next.`,
  turn_passed: (e, n) => `${n(e.data.seat)} passed the turn to ${n(e.data.next)}.`,
  stock_reshuffled: (e) => `The discard was shuffled into a new stock of ${e.data.size}.`,
  // The canyon
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
};

export const EVENT_TYPES = Object.keys(DESCRIBE) as GameEvent["type"][];

export function eventText(event: GameEvent, names: Names): string {
  const describe = DESCRIBE[event.type] as (e: GameEvent, n: Names) => string;
  try {
    return describe(event, names);
  } catch {
    return event.type.replace(/_/g, " ");
  }
}
