// Ochs & Esel: the trick games' board; the ox variant says so in the title.
import type { GameView } from "../client";
import type { GameBoard } from "./board";
import { trickGame } from "./trick";

export const board: GameBoard = {
  ...trickGame,
  title: (view: GameView, title: string) => (view.options as { ox_variant?: boolean }).ox_variant ? `${title} (ox variant)` : title,
};
