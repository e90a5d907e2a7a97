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

const PLAIN = "donkeypost.plain.v1";

/** Whether this browser asked for the plain board (the game's layout as text and lists,
 *  for a screen reader or a small screen) in place of the games' own. */
export function plainBoard(): boolean {
  try {
    return localStorage.getItem(PLAIN) === "1";
  } catch {
    return false;
  }
}

export function setPlainBoard(on: boolean): void {
  try {
    localStorage.setItem(PLAIN, on ? "1" : "0");
  } catch { /* for this page only */ }
}

/** The board drawing this game type: its own if it has one (unless the plain board is
 *  asked for), else the generic one. */
export function boardFor(type: string): GameBoard {
  return (plainBoard() ? undefined : BOARDS[type]) ?? genericBoard;
}
