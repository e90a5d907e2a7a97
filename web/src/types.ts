// The game types as the API describes them (titles, options, rulings), read once per page.
import { api, unwrap, type GameType, type GameView } from "./client";
import { boardFor } from "./games";

let known: Promise<GameType[]> | null = null;

export function gameTypes(): Promise<GameType[]> {
  known ??= api.GET("/games/types").then(unwrap).catch((err: unknown) => {
    known = null; // read again next time
    throw err;
  });
  return known;
}

/** The title of a table: its type's, refined by the game's own board (e.g. a variant). */
export function tableTitle(view: GameView, types: GameType[]): string {
  const title = types.find((t) => t.id === view.type)?.title ?? view.type;
  return boardFor(view.type).title?.(view, title) ?? title;
}
