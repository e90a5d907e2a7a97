// A player's own event stream: every game of theirs in one Server-Sent Events stream, opened
// with a single-use ticket for each connection (EventSource cannot send the key), resumed
// after the last entry received.
import { api, bearer } from "./client";

export interface PlayerEvent {
  id: string;
  type: string;
  game: string;
  game_type: string;
  data: Record<string, unknown>;
}

const TYPES = ["my_turn", "deadline_soon", "invited", "game_started", "game_finished", "message",
               "seat_taken_over"];

/** Follows the player's stream, calling `onEvent` for each entry; returns how to stop. */
export function followPlayer(key: string, onEvent: (ev: PlayerEvent) => void): () => void {
  let closed = false;
  let source: EventSource | null = null;
  let after: string | null = null;

  const connect = async () => {
    if (closed) return;
    const ticket = await api.POST("/players/me/events/stream/tickets", { headers: bearer(key) })
      .catch(() => null);
    if (closed) return;
    if (!ticket?.data) {
      window.setTimeout(() => void connect(), 3000);
      return;
    }
    let url = `${location.origin}/players/me/events/stream?ticket=${encodeURIComponent(ticket.data.ticket)}`;
    if (after) url += `&after=${encodeURIComponent(after)}`;
    const es = new EventSource(url);
    source = es;
    const received = (m: MessageEvent) => {
      after = m.lastEventId || after;
      onEvent(JSON.parse(m.data) as PlayerEvent);
    };
    for (const type of TYPES) es.addEventListener(type, received as EventListener);
    es.onopen = () => { document.body.dataset.playerStream = "live"; };
    es.onerror = () => {
      // A used ticket cannot reopen the stream: a new one for each connection.
      es.close();
      if (source !== es || closed) return;
      source = null;
      document.body.dataset.playerStream = "reconnecting";
      window.setTimeout(() => void connect(), 1000);
    };
  };
  void connect();
  return () => {
    closed = true;
    source?.close();
    delete document.body.dataset.playerStream;
  };
}
