// The one place where a game's own board is registered, by its type's id. Every other game
// is drawn by the generic board.
import type { GameBoard } from "./board";
import { board as canyonDonkeys } from "./canyon-donkeys";
import { board as crazyDonkey } from "./crazy-donkey";
import { genericBoard } from "./generic";
import { board as ochsUndEsel } from "./ochs-und-esel";
import { board as trash } from "./trash";

const BOARDS: Record<string, GameBoard> = {
  "ochs-und-esel": ochsUndEsel,
  "crazy-donkey": crazyDonkey,
  trash,
  "canyon-donkeys": canyonDonkeys,
};

/** The board drawing this game type: its own if it has one, else the generic one. */
export function boardFor(type: string): GameBoard {
  return BOARDS[type] ?? genericBoard;
}
