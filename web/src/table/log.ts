// Reading a game's log over the API, page by page.
import { api, bearer, unwrap, type GameEvent } from "../client";

/** Reads every event of the log after `after` (pages of up to 1000). */
export async function readLog(gameId: string, token: string | undefined, after = 0): Promise<GameEvent[]> {
  const out: GameEvent[] = [];
  for (;;) {
    const page = unwrap(await api.GET("/games/{game_id}/events", {
      params: { path: { game_id: gameId }, query: { after, limit: 1000, words: true }, header: {} },
      headers: bearer(token) }));
    out.push(...page.events);
    if (!page.events.length || page.events[page.events.length - 1].seq >= page.version) return out;
    after = page.events[page.events.length - 1].seq;
  }
}
