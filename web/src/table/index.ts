// A table: the view of this browser's seat (or a spectator's), its legal actions to click,
// the log in words, and live updates from the event stream, resumed after a drop. The
// state (state.ts), the stream (stream.ts) and the drawing (render.ts) are wired here.
import { api, bearer, failure, unwrap, type Action, type GameView, type Schemas } from "../client";
import { announce, mount } from "../dom";
import { boardFor } from "../games";
import { creatorToken, credentialFor, keepSeat, player, seatIn } from "../store";
import { gameTypes, tableTitle } from "../types";
import { ChatPanel, readChat } from "./chat";
import { readLog } from "./log";
import { describeEvent, seatNames, statusLine, TableView } from "./render";
import { TableState } from "./state";
import { offerNotifications } from "../notifications";
import { openStream } from "./stream";
import { ready, t } from "../i18n";
import { sentenceOf } from "../layout";

export async function showTable(gameId: string): Promise<() => void> {
  const token = credentialFor(gameId);
  // (words: the game's own labels, layout and sentences, in the page's language)
  const read = { params: { path: { game_id: gameId }, query: { words: true }, header: {} }, headers: bearer(token) };
  // Everything the first drawing needs, asked at once: one round trip.
  const [first, log, types, said, _ready] = await Promise.all([
    api.GET("/games/{game_id}", read).then(unwrap), readLog(gameId, token), gameTypes(),
    readChat(gameId), ready]);
  const state = new TableState(first, log, boardFor(first.type));
  const title = (view: GameView) => tableTitle(view, types);
  let closeStream: (() => void) | null = null;

  const chat = new ChatPanel(gameId, token, (view) => {
    const me = player();
    return creatorToken(gameId) ?? (me && view.created_by === me.id ? me.key : undefined);
  });
  const render = () => {
    table.render(state);
    chat.update(state.view);
  };
  const refresh = async () => {
    const answer = await api.GET("/games/{game_id}", read).catch(() => null);
    // (unreachable for a moment: the stream's reconnection reads it again)
    if (answer?.data) applyView(answer.data);
  };
  // The stream sends the view after each batch of events: a GET is only the fallback when
  // it does not come soon.
  let refreshing: number | undefined;
  const refreshSoon = () => {
    window.clearTimeout(refreshing);
    refreshing = window.setTimeout(() => void refresh(), 400);
  };
  // What a screen reader hears (the page's polite live region): the other seats' moves in
  // the game's words, a batch at a time, then "your turn", and the end.
  let heard: string[] = [];
  let telling: number | undefined;
  const tell = (text: string) => {
    heard.push(text);
    window.clearTimeout(telling);
    telling = window.setTimeout(() => {
      announce(heard.join(" "));
      heard = [];
    }, 250);
  };
  const applyView = (next: GameView) => {
    const wasOver = state.over;
    const taken = state.takeView(next);
    if (!taken) return;
    if (next.version >= state.lastSeq) window.clearTimeout(refreshing);
    // Events of a type this page did not listen for: the view says they happened (a
    // moment is left for the stream's own, which may be on their way).
    if (next.version > state.lastSeq) window.setTimeout(() => { if (state.view.version > state.lastSeq) catchUp(); }, 300);
    render();
    if (taken.turnBegan) {
      tell(t("Your turn."));
      // Nobody is doing anything else on the page: the moves get the focus.
      if (document.activeElement === document.body || document.activeElement === null) table.focusMoves();
    }
    if (state.over && !wasOver) tell(statusLine(state.view, seatNames(state.view)));
  };
  let catching = false;
  const catchUp = () => {
    if (catching) return;
    catching = true;
    readLog(gameId, token, state.lastSeq).then((missed) => missed.forEach(addEvent), () => refreshSoon())
      .finally(() => { catching = false; });
  };
  const addEvent = (ev: Schemas["Event"]) => {
    const taken = state.takeEvent(ev);
    if (taken === "gap") {
      // Something was missed: read it from the log rather than guess.
      catchUp();
      return;
    }
    if (taken === "old") {
      // Known already (from the answer to a move, which has no sentences): now in words.
      if (sentenceOf(ev)) table.reword(ev, state);
      return;
    }
    table.appendLog([ev], state);
    if (ev.actor === null || ev.actor !== state.view.you) tell(describeEvent(ev, seatNames(state.view), state.board));
    document.body.dataset.lastSeq = String(state.lastSeq);
    refreshSoon();
  };

  const act = async (action: Action) => {
    if (state.busy) return;
    state.busy = true;
    let moved = false;
    table.showError("");
    render();
    try {
      const answer = await api.POST("/games/{game_id}/actions", {
        params: { path: { game_id: gameId }, query: { words: true }, header: {
          "If-Match": `"${state.view.version}"`,
          "Idempotency-Key": crypto.getRandomValues(new Uint32Array(4)).join("-") } },
        headers: bearer(token), body: action });
      if (answer.error) table.showError(failure(answer.error, answer.response).message);
      else {
        answer.data.events.forEach(addEvent);
        // (its events carry no sentences: the stream's, or the log read for a gap, do)
        applyView(answer.data.view);
        moved = true;
        // After a player's first move here: would they be told when it is their turn?
        const offer = offerNotifications();
        if (offer && !document.querySelector(".push-offer")) table.actions.after(offer);
      }
    } catch {
      table.showError(t("The server could not be reached: try again in a moment."));
    } finally {
      state.busy = false;
      // The answer held the view after the move; else it is read again.
      if (moved) render();
      else await refresh();
    }
  };

  const pick = (key: string) => {
    const options = state.using(key);
    if (options.length === 1) void act(options[0]);
    else {
      state.picked = key;
      render();
    }
  };

  // What the view says the caller may do to the table itself.
  const tableAction = async (action: Schemas["TableAction"]) => {
    const path = { params: { path: { game_id: gameId } }, headers: bearer(token) };
    const sure = (question: string) => confirm(question);
    try {
      switch (action.name) {
        case "rematch": {
          const next = unwrap(await api.POST("/games/{game_id}/rematch", path));
          if (next.token) {
            keepSeat({ game: next.game.id, type: next.game.type, seat: next.seat, token: next.token,
                       name: seatIn(gameId)?.name ?? "", at: Date.now() });
          }
          location.hash = `#/game/${next.game.id}`;
          return;
        }
        case "cancel":
          if (sure(t("Cancel this game for everyone?"))) unwrap(await api.POST("/games/{game_id}/cancel", path));
          break;
        case "resign":
          if (sure(t("Resign this game?"))) unwrap(await api.POST("/games/{game_id}/resign", path));
          break;
        case "leave":
          if (sure(t("Leave the table? A bot plays your seat on."))) {
            const level = (action.body?.level ?? "basic") as "random" | "basic" | "strong" | "expert";
            unwrap(await api.POST("/games/{game_id}/leave", { ...path, body: { level } }));
          }
          break;
        case "abort":
          unwrap(await api.POST("/games/{game_id}/abort", path));
          break;
        case "withdraw_abort":
          unwrap(await api.DELETE("/games/{game_id}/abort", path));
          break;
      }
      await refresh();
    } catch (err) {
      table.showError((err as Error).message);
    }
  };

  const table = new TableView(gameId, title, {
    act: (a) => void act(a), pick, tableAction: (a) => void tableAction(a),
    unpick: () => {
      state.picked = null;
      render();
    },
  });
  mount(...table.parts(chat.element));
  table.appendLog(state.log, state);
  document.body.dataset.lastSeq = String(state.lastSeq);
  render();
  chat.take(said, true);
  const ticker = window.setInterval(() => table.tick(), 1000);

  if (!state.over) {
    // The stream names each event by its type: the game's own types, as its description lists
    // them (an event of another type is read from the log when the view says it happened).
    const listed = types.find((type) => type.id === state.view.type)?.events ?? [];
    closeStream = openStream(gameId, state.view.you !== null ? token : undefined, listed, {
      after: () => state.lastSeq,
      chatAfter: () => chat.last,
      over: () => state.over,
      event: addEvent,
      view: applyView,
      chat: (entry) => chat.take([entry]),
      liveness: (live, why) => table.showLiveness(live, why),
    });
  } else table.showLiveness("over");
  return () => {
    closeStream?.();
    window.clearInterval(ticker);
    window.clearTimeout(refreshing);
  };
}
