// The game's live stream (Server-Sent Events, with the caller's view after each batch of
// events), resumed after a drop where it left off.
import { api, bearer, failure, type GameEvent, type GameView, type Schemas } from "../client";
import { lang } from "../i18n";

export type Liveness = "connecting" | "live" | "reconnecting" | "offline" | "over";

export interface StreamHandlers {
  /** The seq to resume after, and the chat entry. */
  after(): number;
  chatAfter(): number;
  /** True once the game is over: no reconnection then. */
  over(): boolean;
  event(ev: GameEvent): void;
  view(view: GameView): void;
  chat(entry: Schemas["ChatEntry"]): void;
  /** How the stream is doing, with the reason when it is offline. */
  liveness(state: Liveness, why?: string): void;
}

const CHAT_TYPES = ["message", "message_hidden"];

/** Opens the stream for a seat (`token`, with a single-use ticket for each connection, as
 *  EventSource cannot send the token) or a spectator; returns how to close it. */
export function openStream(gameId: string, token: string | undefined, eventTypes: readonly string[],
                           on: StreamHandlers): () => void {
  let closed = false;
  let source: EventSource | null = null;
  let connections = 0;

  const connect = async () => {
    if (closed) return;
    let url = `${location.origin}/games/${encodeURIComponent(gameId)}/events/stream?after=${on.after()}&messages_after=${on.chatAfter()}&views=true&words=true&lang=${lang}`;
    if (token) {
      const ticket = await api.POST("/games/{game_id}/events/stream/tickets", {
        params: { path: { game_id: gameId } }, headers: bearer(token) }).catch(() => null);
      if (closed) return;
      if (!ticket?.data) {
        on.liveness("offline", ticket ? failure(ticket.error, ticket.response).message : undefined);
        window.setTimeout(() => void connect(), 2000);
        return;
      }
      url += `&ticket=${encodeURIComponent(ticket.data.ticket)}`;
    }
    const es = new EventSource(url);
    source = es;
    connections += 1;
    document.body.dataset.streamConnections = String(connections);
    const onEvent = (m: MessageEvent) => on.event(JSON.parse(m.data) as GameEvent);
    for (const type of eventTypes) es.addEventListener(type, onEvent as EventListener);
    const onChat = (m: MessageEvent) => on.chat(JSON.parse(m.data) as Schemas["ChatEntry"]);
    for (const type of CHAT_TYPES) es.addEventListener(type, onChat as EventListener);
    es.addEventListener("view", ((m: MessageEvent) => on.view(JSON.parse(m.data) as GameView)) as EventListener);
    es.onopen = () => on.liveness("live");
    es.onerror = () => {
      es.close();
      if (source !== es || closed) return;
      source = null;
      if (on.over()) {
        on.liveness("over");
        return;
      }
      on.liveness("reconnecting");
      window.setTimeout(() => void connect(), 1000);
    };
  };

  void connect();
  return () => {
    closed = true;
    source?.close();
  };
}
