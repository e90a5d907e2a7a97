// A table: the view of this browser's seat (or a spectator's), its legal actions to click,
// the log in words, and live updates from the event stream, resumed after a drop.
import { drawBoard, involves } from "./boards";
import {
  api, bearer, failure, unwrap, type Action, type GameEvent, type GameView, type Schemas,
} from "./client";
import { actionLabel, EVENT_TYPES, eventText, type Names } from "./describe";
import { announce, h, mount, when } from "./dom";
import { credentialFor, keepSeat, seatIn } from "./store";

const TITLES: Record<GameView["type"], string> = {
  "ochs-und-esel": "Ochs & Esel", "crazy-donkey": "Crazy Donkey", trash: "Trash",
  "canyon-donkeys": "Grand Canyon",
};

const TABLE_ACTION_LABELS: Record<Schemas["TableAction"]["name"], string> = {
  rematch: "Rematch", cancel: "Cancel the game", resign: "Resign", leave: "Leave (a bot plays on)",
  abort: "Vote to abort", withdraw_abort: "Take back my abort vote",
};

export function gameTitle(view: GameView): string {
  return view.type === "ochs-und-esel" && view.options.ox_variant ? "Ochs & Esel (ox variant)"
    : TITLES[view.type];
}

export function seatNames(view: GameView): Names {
  return (seat) => {
    if (seat === null || seat === undefined) return "nobody";
    const s = view.seats[seat];
    if (!s) return `seat ${seat + 1}`;
    const name = s.name ?? (s.kind === "bot" ? `Bot ${seat + 1} (${s.level})` : `Seat ${seat + 1}`);
    return seat === view.you ? `${name} (you)` : name;
  };
}

/** Reads every event of the log after `after` (pages of up to 1000). */
export async function readLog(gameId: string, token: string | undefined, after = 0): Promise<GameEvent[]> {
  const out: GameEvent[] = [];
  for (;;) {
    const page = unwrap(await api.GET("/games/{game_id}/events", {
      params: { path: { game_id: gameId }, query: { after, limit: 1000 }, header: {} },
      headers: bearer(token) }));
    out.push(...page.events);
    if (!page.events.length || page.events[page.events.length - 1].seq >= page.version) return out;
    after = page.events[page.events.length - 1].seq;
  }
}

export async function showTable(gameId: string): Promise<() => void> {
  const held = seatIn(gameId);
  const token = credentialFor(gameId);
  let view = unwrap(await api.GET("/games/{game_id}", {
    params: { path: { game_id: gameId }, header: {} }, headers: bearer(token) }));
  const log: GameEvent[] = await readLog(gameId, token);
  let lastSeq = log.length ? log[log.length - 1].seq : 0;
  let picked: string | null = null;
  let busy = false;
  let closed = false;
  let stream: EventSource | null = null;
  let connections = 0;

  const status = h("p", { class: "status", id: "status" });
  const live = h("span", { class: "live", id: "live" }, "connecting…");
  const error = h("p", { class: "error", id: "error", role: "alert" });
  const board = h("div", { id: "board" });
  const actions = h("section", { id: "actions", class: "actions", "aria-label": "your moves" });
  const seats = h("ul", { class: "seats", id: "seats", "aria-label": "seats" });
  const logList = h("ol", { class: "log", id: "log", "aria-label": "moves so far" });
  const invite = h("div", { id: "invite" });
  const heading = h("h1", {}, gameTitle(view));
  const tableActions = h("span", { class: "table-actions" });

  // What the view says the caller may do to the table itself.
  const tableAction = async (action: Schemas["TableAction"]) => {
    const name = action.name;
    const path = { params: { path: { game_id: gameId } }, headers: bearer(token) };
    const sure = (question: string) => confirm(question);
    try {
      if (name === "rematch") {
        const next = unwrap(await api.POST("/games/{game_id}/rematch", path));
        if (next.token) {
          keepSeat({ game: next.game.id, type: next.game.type, seat: next.seat, token: next.token,
                     name: held?.name ?? "", at: Date.now() });
        }
        location.hash = `#/game/${next.game.id}`;
        return;
      }
      if (name === "cancel" && sure("Cancel this game for everyone?")) {
        unwrap(await api.POST("/games/{game_id}/cancel", path));
      } else if (name === "resign" && sure("Resign this game?")) {
        unwrap(await api.POST("/games/{game_id}/resign", path));
      } else if (name === "leave" && sure("Leave the table? A bot plays your seat on.")) {
        const level = (action.body?.level ?? "basic") as "random" | "basic" | "strong";
        unwrap(await api.POST("/games/{game_id}/leave", { ...path, body: { level } }));
      } else if (name === "abort") {
        unwrap(await api.POST("/games/{game_id}/abort", path));
      } else if (name === "withdraw_abort") {
        unwrap(await api.DELETE("/games/{game_id}/abort", path));
      }
      await refresh();
    } catch (err) {
      error.textContent = (err as Error).message;
    }
  };

  const render = () => {
    const names = seatNames(view);
    heading.textContent = gameTitle(view);
    document.title = `${gameTitle(view)} · donkeypost`;
    status.replaceChildren(statusLine(view, names));
    seats.replaceChildren(...view.seats.map((s) => h("li", {
      class: view.to_act.includes(s.seat) ? "to-act" : "", "aria-current": view.to_act.includes(s.seat) ? "true" : null },
      view.to_act.includes(s.seat) ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "▶ ") : "",
      names(s.seat), s.kind === "bot" ? h("span", { class: "badge" }, "bot") : "",
      !s.taken ? h("span", { class: "badge" }, "free") : "", s.away ? h("span", { class: "badge" }, "away") : "",
      s.deadline ? h("span", { class: "deadline", "data-deadline": s.deadline }, ` · ${when(s.deadline)} left`) : "",
      view.outcome ? ` · place ${view.outcome.places[s.seat]} (${view.outcome.scores[s.seat]} ${view.outcome.score_name})` : "")));
    board.replaceChildren(drawBoard(view, names, view.you !== null && !busy ? pick : null));
    drawActions();
    invite.replaceChildren(view.status === "open" ? inviteBox(gameId) : "");
    tableActions.replaceChildren(...view.table_actions.map((a) => h("button", {
      type: "button", "data-table-action": a.name, onclick: () => void tableAction(a) },
      a.name === "leave" && a.body?.level ? `Leave (a ${a.body.level} bot plays on)`
        : TABLE_ACTION_LABELS[a.name])));
    document.body.dataset.version = String(view.version);
    document.body.dataset.status = view.status;
  };

  const drawActions = () => {
    const legal = view.legal_actions as Action[];
    if (view.you === null || !legal.length) {
      actions.replaceChildren();
      return;
    }
    const chosen = picked ? legal.filter((a) => involves(a).includes(picked!)) : [];
    const button = (a: Action) => h("button", { type: "button", class: `action ${chosen.includes(a) ? "chosen" : ""}`,
      "data-action": JSON.stringify(a), disabled: busy, onclick: () => void act(a) }, actionLabel(a));
    actions.replaceChildren(
      h("h2", {}, "Your move"),
      chosen.length > 1 ? h("div", { class: "choice", role: "group", "aria-label": "choose" },
        h("p", {}, "Which one?"), chosen.map(button),
        h("button", { type: "button", class: "ghost", onclick: () => { picked = null; render(); } }, "Cancel")) : "",
      h("div", { class: "all-actions" }, legal.map(button)));
    const first = actions.querySelector<HTMLButtonElement>(chosen.length > 1 ? ".choice button" : "button");
    if (chosen.length > 1) first?.focus();
  };

  const pick = (key: string) => {
    const options = (view.legal_actions as Action[]).filter((a) => involves(a).includes(key));
    if (options.length === 1) void act(options[0]);
    else {
      picked = key;
      render();
    }
  };

  const refresh = async () => {
    let answer;
    try {
      answer = await api.GET("/games/{game_id}", {
        params: { path: { game_id: gameId }, header: {} }, headers: bearer(token) });
    } catch {
      return; // unreachable for a moment: the stream's reconnection reads it again
    }
    if (answer.data) applyView(answer.data);
  };

  // The stream sends the view after each batch of events (`views=true`): a GET is only
  // the fallback when it does not come soon.
  let refreshing: number | undefined;
  const refreshSoon = () => {
    window.clearTimeout(refreshing);
    refreshing = window.setTimeout(() => void refresh(), 400);
  };
  const applyView = (next: GameView) => {
    if (next.version < view.version) return;
    if (next.version >= lastSeq) window.clearTimeout(refreshing);
    const wasMyTurn = view.you !== null && view.to_act.includes(view.you);
    view = next;
    picked = null;
    render();
    if (!wasMyTurn && view.you !== null && view.to_act.includes(view.you)) announce("Your turn.");
  };

  const act = async (action: Action) => {
    if (busy) return;
    busy = true;
    error.textContent = "";
    render();
    try {
      const answer = await api.POST("/games/{game_id}/actions", {
        params: { path: { game_id: gameId }, header: {
          "If-Match": `"${view.version}"`, "Idempotency-Key": crypto.getRandomValues(new Uint32Array(4)).join("-") } },
        headers: bearer(token), body: action });
      if (answer.error) {
        const why = failure(answer.error, answer.response);
        error.textContent = why.message;
        announce(why.message);
      } else {
        for (const ev of answer.data.events) addEvent(ev);
      }
    } catch {
      error.textContent = "The server could not be reached: try again in a moment.";
      announce(error.textContent);
    } finally {
      busy = false;
      await refresh();
    }
  };

  const addEvent = (ev: GameEvent) => {
    if (ev.seq <= lastSeq) return;
    if (ev.seq > lastSeq + 1 && stream) {
      // A gap: something was missed. Read it from the log rather than guess.
      readLog(gameId, token, lastSeq).then((missed) => missed.forEach(addEvent), () => refreshSoon());
      return;
    }
    log.push(ev);
    lastSeq = ev.seq;
    logList.append(logItem(ev, seatNames(view)));
    logBox.scrollTop = logBox.scrollHeight;
    document.body.dataset.lastSeq = String(lastSeq);
    refreshSoon();
  };

  const connect = async () => {
    if (closed) return;
    let url = `${location.origin}/games/${encodeURIComponent(gameId)}/events/stream?after=${lastSeq}&views=true`;
    if (token && view.you !== null) {
      // EventSource cannot send our token: a single-use ticket stands for it, a new one
      // for each connection (a reconnect with a used ticket would be refused).
      const ticket = await api.POST("/games/{game_id}/events/stream/tickets", {
        params: { path: { game_id: gameId } }, headers: bearer(token) }).catch(() => null);
      if (!ticket?.data) {
        live.textContent = ticket ? `offline: ${failure(ticket.error, ticket.response).message}`
          : "offline";
        live.className = "live off";
        window.setTimeout(() => void connect(), 2000);
        return;
      }
      url += `&ticket=${encodeURIComponent(ticket.data.ticket)}`;
    }
    const source = new EventSource(url);
    stream = source;
    connections += 1;
    document.body.dataset.streamConnections = String(connections);
    const onEvent = (m: MessageEvent) => addEvent(JSON.parse(m.data) as GameEvent);
    for (const type of EVENT_TYPES) source.addEventListener(type, onEvent as EventListener);
    source.addEventListener("view", ((m: MessageEvent) => applyView(JSON.parse(m.data) as GameView)) as EventListener);
    source.onopen = () => {
      live.textContent = "live";
      live.className = "live on";
      void refresh();  // whatever happened while we were away
    };
    source.onerror = () => {
      source.close();
      if (stream !== source || closed) return;
      stream = null;
      if (view.status === "finished" || view.status === "cancelled") {
        live.textContent = "game over";
        live.className = "live";
        return;
      }
      live.textContent = "reconnecting…";
      live.className = "live off";
      window.setTimeout(() => void connect(), 1000);
    };
  };

  const ticker = window.setInterval(() => {
    for (const el of document.querySelectorAll<HTMLElement>("[data-deadline]")) {
      el.textContent = ` · ${when(Number(el.dataset.deadline))} left`;
    }
  }, 1000);

  logList.append(...log.map((ev) => logItem(ev, seatNames(view))));
  document.body.dataset.lastSeq = String(lastSeq);
  const logBox = h("section", { class: "log-box", "aria-labelledby": "log-h" },
    h("h2", { id: "log-h" }, "Moves"), logList);
  mount(h("div", { class: "table-head" }, heading, live), status, invite, seats, board, error, actions,
    logBox,
    h("p", { class: "links" }, h("a", { href: `#/replay/${gameId}` }, "Replay"), " ",
      tableActions),
    h("p", { class: "note" }, view.you !== null ? `You are seat ${view.you + 1}.` : "You are watching."));
  render();
  logBox.scrollTop = logBox.scrollHeight;
  if (view.status !== "finished" && view.status !== "cancelled") void connect();
  else live.textContent = "game over";
  return () => {
    closed = true;
    stream?.close();
    window.clearInterval(ticker);
  };
}

function logItem(ev: GameEvent, names: Names): HTMLElement {
  return h("li", { "data-seq": ev.seq }, h("span", { class: "seq" }, ev.seq), " ", eventText(ev, names));
}

function statusLine(view: GameView, names: Names): string {
  if (view.status === "open") return `Waiting for players: ${view.seats.filter((s) => !s.taken).length} seat(s) free.`;
  if (view.status === "cancelled") return "This game was cancelled.";
  if (view.status === "finished") {
    const winners = view.seats.filter((s) => view.outcome?.places[s.seat] === 1).map((s) => names(s.seat));
    return `Finished. ${winners.join(" and ")} ${winners.length > 1 ? "win" : "wins"}.`;
  }
  if (view.you !== null && view.to_act.includes(view.you)) return "Your turn.";
  return `Waiting for ${view.to_act.map(names).join(" and ")}.`;
}

function inviteBox(gameId: string): HTMLElement {
  const link = `${location.origin}${location.pathname}#/join/${gameId}`;
  const input = h("input", { id: "invite-link", readonly: true, value: link }) as HTMLInputElement;
  return h("div", { class: "invite" }, h("label", { for: "invite-link" }, "Invite someone with this link"),
    input, h("button", { type: "button", onclick: () => {
      input.select();
      void navigator.clipboard?.writeText(link).then(() => announce("Link copied."));
    } }, "Copy"));
}
