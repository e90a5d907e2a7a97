// The page's own words for a game, when the server's are not there (an exported log replayed
// from a file, a move named by the analysis): the table's own events here, each game's in
// its own file (web/src/games/<type>.ts, `sentences` and `label`). The table reads the
// server's words (`action_labels`, `sentence`) first; a game without words of its own here
// shows its events' and actions' types.
import type { Action, GameEvent } from "./client";
import type { GameBoard } from "./games/board";

export type Names = (seat: number | null | undefined) => string;

type Describers = { [T in GameEvent["type"]]: (e: Extract<GameEvent, { type: T }>, n: Names) => string };
/** Sentences for some event types. */
export type Sentences = Partial<Describers>;

const AUTO: Record<string, string> = { timeout: "time ran out", away: "away", forced: "their only move" };
/** Why the server played a seat's move, if it did. */
export const auto = (d: { auto?: string | null }) =>
  d.auto ? ` (played for them: ${AUTO[d.auto] ?? d.auto})` : "";

const TABLE: Sentences = {
  game_created: (e) => `The table was set for ${e.data.seats.length} players.`,
  player_joined: (e) => `${e.data.name ?? "A player"} sat down at seat ${e.data.seat + 1}.`,
  game_started: () => "The game started.",
  game_cancelled: () => "The game was cancelled.",
  first_player_chosen: (e, n) => `${n(e.data.seat)} goes first${e.data.random ? " (drawn at random)" : ""}.`,
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
};

/** An event in the page's own words: the game's sentence, else the table's, else its type. */
export function eventText(event: GameEvent, names: Names, board: GameBoard): string {
  const describe = (board.sentences?.[event.type] ?? TABLE[event.type]) as
    ((e: GameEvent, n: Names) => string) | undefined;
  try {
    if (describe) return describe(event, names);
  } catch { /* data of another shape: its type, below */ }
  return event.type.replace(/_/g, " ");
}

/** An action in the page's own words: the game's label, else its type. */
export function actionText(action: Action, board: GameBoard): string {
  return board.label?.(action) ?? action.type.replace(/_/g, " ");
}
