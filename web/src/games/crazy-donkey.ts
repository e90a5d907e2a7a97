// Crazy Donkey: the trick games' board as it is.
import type { GameBoard } from "./board";
import { trickGame } from "./trick";

export const board: GameBoard = trickGame;
