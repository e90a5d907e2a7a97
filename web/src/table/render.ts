// Drawing a table from its state: the heading, the status line, the seats, the game's board,
// the moves the seat may make, the table's own actions and the log. The elements are made
// once; each render replaces what they hold.
import type { Action, GameEvent, GameView, Schemas } from "../client";
import type { GameBoard } from "../games/board";
import { actionText, eventText, type Names } from "../words";
import { announce, h, when } from "../dom";
import { actionLabels, sentenceOf } from "../layout";
import type { TableState } from "./state";
import type { Liveness } from "./stream";
import { listed, t, tn } from "../i18n";
import { plainBoard, setPlainBoard } from "../games";

export interface TableHandlers {
  act(action: Action): void;
  pick(key: string): void;
  unpick(): void;
  tableAction(action: Schemas["TableAction"]): void;
}

const TABLE_ACTION_LABELS: Record<Schemas["TableAction"]["name"], () => string> = {
  rematch: () => t("Rematch"), cancel: () => t("Cancel the game"), resign: () => t("Resign"),
  leave: () => t("Leave (a bot plays on)"), abort: () => t("Vote to abort"),
  withdraw_abort: () => t("Take back my abort vote"), take_back: () => t("Take back my move"),
};

const LIVENESS: Record<Liveness, () => string> = {
  connecting: () => t("connecting…"), live: () => t("live"), reconnecting: () => t("reconnecting…"),
  offline: () => t("offline"), over: () => t("game over"),
};

const LEVELS: Record<string, () => string> = {
  random: () => t("random"), basic: () => t("basic"), strong: () => t("strong"), expert: () => t("expert"),
};

/** A bot's level in words. */
export function botLevel(level: string | null | undefined): string {
  return level ? LEVELS[level]?.() ?? level : "";
}

export function seatNames(view: GameView): Names {
  return (seat) => {
    if (seat === null || seat === undefined) return t("nobody");
    const s = view.seats[seat];
    if (!s) return t("Seat {n}", { n: seat + 1 });
    const name = s.name ?? (s.kind === "bot" ? t("Bot {n} ({level})", { n: seat + 1, level: botLevel(s.level) })
      : t("Seat {n}", { n: seat + 1 }));
    return seat === view.you ? t("{name} (you)", { name }) : name;
  };
}

export class TableView {
  readonly heading = h("h1", {});
  readonly live = h("span", { class: "live", id: "live" }, LIVENESS.connecting());
  readonly status = h("p", { class: "status", id: "status", tabindex: -1 });
  readonly error = h("p", { class: "error", id: "error", role: "alert" });
  readonly board = h("div", { id: "board" });
  readonly actions = h("section", { id: "actions", class: "actions", "aria-label": t("your moves") });
  readonly seats = h("ul", { class: "seats", id: "seats", "aria-label": t("seats") });
  readonly logList = h("ol", { class: "log", id: "log", "aria-label": t("moves so far") });
  readonly logBox = h("section", { class: "log-box", "aria-labelledby": "log-h", tabindex: 0 },
    h("h2", { id: "log-h" }, t("Moves")), this.logList);
  readonly invite = h("div", { id: "invite" });
  readonly tableActions = h("span", { class: "table-actions" });
  readonly note = h("p", { class: "note" });

  constructor(readonly gameId: string, readonly title: (view: GameView) => string,
              readonly on: TableHandlers) {}

  /** The page's elements, in their order. */
  parts(chat: HTMLElement): HTMLElement[] {
    return [h("button", { type: "button", class: "skip", onclick: () => this.focusMoves() }, t("Skip to your moves")),
      h("div", { class: "table-head" }, this.heading, this.live), this.status, this.invite,
      this.seats, this.board, this.error, this.actions,
      h("div", { class: "side" }, this.logBox, chat),
      h("p", { class: "links" }, h("a", { href: `#/replay/${this.gameId}` }, t("Replay")), " ",
        this.tableActions),
      this.note,
      plainChoice(),
      linkBox("watch-link", t("Anyone may watch with this link (no seat, no hidden card)"),
        `${location.origin}${location.pathname}#/games/${this.gameId}`)];
  }

  render(state: TableState): void {
    const view = state.view;
    // The focus was on a move or a card, which this drawing replaces: it goes to the moves.
    const focused = document.activeElement;
    const hadFocus = focused !== null && focused !== document.body
      && (this.actions.contains(focused) || this.board.contains(focused));
    const names = seatNames(view);
    const title = this.title(view);
    this.heading.textContent = title;
    document.title = `${title} · donkeypost`;
    this.status.replaceChildren(statusLine(view, names));
    this.seats.replaceChildren(...view.seats.map((s) => seatItem(view, s, names)));
    this.board.replaceChildren(h("h2", { class: "visually-hidden" }, t("The table")), view.game === null
      ? h("p", { class: "board" }, t("The cards are dealt when every seat is taken."))
      : state.board.draw(view, { names, pick: view.you !== null && !state.busy ? this.on.pick : null, log: state.log }));
    this.drawActions(state);
    this.invite.replaceChildren(view.status === "open" ? linkBox("invite-link", t("Invite someone with this link"),
      `${location.origin}${location.pathname}#/join/${this.gameId}`) : "");
    this.tableActions.replaceChildren(...view.table_actions.map((a) => h("button", {
      type: "button", "data-table-action": a.name, onclick: () => this.on.tableAction(a) },
      a.name === "leave" && a.body?.level ? t("Leave (a bot plays on: {level})", { level: botLevel(a.body.level) })
        : TABLE_ACTION_LABELS[a.name]())));
    this.note.textContent = view.you !== null ? t("You are seat {n}.", { n: view.you + 1 }) : t("You are watching.");
    if (!document.body.dataset.version) performance.mark("table-drawn"); // (the budget's test)
    document.body.dataset.version = String(view.version);
    document.body.dataset.status = view.status;
    if (hadFocus && !(document.activeElement && document.activeElement !== document.body)) this.focusMoves();
  }

  /** The focus to the first move offered, else to the status line. */
  focusMoves(): void {
    const first = this.actions.querySelector<HTMLElement>(".choice button, .all-actions button:not([disabled])");
    (first ?? this.status).focus();
  }

  private drawActions(state: TableState): void {
    const legal = state.legal;
    if (state.view.you === null || !legal.length) {
      this.actions.replaceChildren();
      return;
    }
    const chosen = state.picked ? state.using(state.picked) : [];
    const labels = actionLabels(state.view);
    const label = (a: Action) => labels?.[legal.indexOf(a)]?.text ?? actionText(a, state.board);
    const button = (a: Action) => h("button", { type: "button", class: `action ${chosen.includes(a) ? "chosen" : ""}`,
      "data-action": JSON.stringify(a), disabled: state.busy, onclick: () => this.on.act(a) }, label(a));
    this.actions.replaceChildren(
      h("h2", {}, t("Your move")),
      chosen.length > 1 ? h("div", { class: "choice", role: "group", "aria-label": t("choose") },
        h("p", {}, t("Which one?")), chosen.map(button),
        h("button", { type: "button", class: "ghost", onclick: () => this.on.unpick() }, t("Cancel"))) : "",
      h("div", { class: "all-actions" }, legal.map(button)));
    if (chosen.length > 1) this.actions.querySelector<HTMLButtonElement>(".choice button")?.focus();
  }

  /** Events appended to the log list. */
  appendLog(events: GameEvent[], state: TableState): void {
    const names = seatNames(state.view);
    this.logList.append(...events.map((ev) => logItem(ev, names, state.board)));
    this.logBox.scrollTop = this.logBox.scrollHeight;
  }

  /** An event already in the log, written again (now with the game's sentence). */
  reword(ev: GameEvent, state: TableState): void {
    this.logList.querySelector(`li[data-seq="${ev.seq}"]`)?.replaceWith(logItem(ev, seatNames(state.view), state.board));
  }

  showLiveness(state: Liveness, why?: string): void {
    this.live.textContent = why ? `${LIVENESS[state]()}: ${why}` : LIVENESS[state]();
    this.live.className = `live ${state === "live" ? "on" : state === "over" || state === "connecting" ? "" : "off"}`;
  }

  showError(message: string): void {
    this.error.textContent = message;
    if (message) announce(message);
  }

  /** The deadlines shown count down between renders. */
  tick(): void {
    for (const el of document.querySelectorAll<HTMLElement>("[data-deadline]")) {
      el.textContent = ` · ${t("{time} left", { time: when(Number(el.dataset.deadline)) })}`;
    }
  }
}

function seatItem(view: GameView, s: GameView["seats"][number], names: Names): HTMLElement {
  const acting = view.to_act.includes(s.seat);
  return h("li", { class: acting ? "to-act" : "", "aria-current": acting ? "true" : null },
    acting ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "▶ ") : "",
    h("span", { class: "seat-no", title: t("seat {n}", { n: s.seat + 1 }) }, s.seat + 1), " ",
    names(s.seat), s.kind === "bot" ? h("span", { class: "badge" }, t("bot")) : "",
    !s.taken ? h("span", { class: "badge" }, t("free")) : "", s.away ? h("span", { class: "badge" }, t("away")) : "",
    s.vacation_until ? h("span", { class: "badge" }, t("on vacation until {date}", {
      date: new Date(s.vacation_until * 1000).toLocaleDateString() })) : "",
    s.auto_forced ? h("span", { class: "badge", title: t("its forced moves play themselves") }, t("auto")) : "",
    s.deadline ? h("span", { class: "deadline", "data-deadline": s.deadline }, ` · ${t("{time} left", { time: when(s.deadline) })}`)
      : s.time_left !== null && s.time_left !== undefined && view.status === "active"
        ? ` · ${t("{time} in the bank", { time: when(Date.now() / 1000 + s.time_left) })}` : "",
    view.outcome ? ` · ${t("place {place} ({score} {unit})", { place: view.outcome.places[s.seat],
      score: view.outcome.scores[s.seat], unit: view.outcome.score_name })}` : "");
}

function logItem(ev: GameEvent, names: Names, board: GameBoard): HTMLElement {
  return h("li", { "data-seq": ev.seq }, h("span", { class: "seq" }, ev.seq), " ", describeEvent(ev, names, board));
}

/** An event in words: the API's sentence, else the page's own. */
export function describeEvent(ev: GameEvent, names: Names, board: GameBoard): string {
  return sentenceOf(ev) ?? eventText(ev, names, board);
}

/** Where the game stands, in a sentence (the status line, and what is said at the end). */
export function statusLine(view: GameView, names: Names): string {
  if (view.status === "open") {
    return tn("Waiting for players: {n} seat free.", "Waiting for players: {n} seats free.",
              view.seats.filter((s) => !s.taken).length);
  }
  if (view.status === "cancelled") return t("This game was cancelled.");
  if (view.status === "finished") {
    const winners = view.seats.filter((s) => view.outcome?.places[s.seat] === 1).map((s) => names(s.seat));
    return tn("Finished. {names} wins.", "Finished. {names} win.", winners.length, { names: listed(winners) });
  }
  if (view.you !== null && view.to_act.includes(view.you)) return t("Your turn.");
  return t("Waiting for {names}.", { names: listed(view.to_act.map(names)) });
}

/** The choice of the plain board (kept in this browser; the table is drawn again). */
function plainChoice(): HTMLElement {
  const box = h("input", { id: "plain-board", type: "checkbox", checked: plainBoard() }) as HTMLInputElement;
  box.addEventListener("change", () => {
    setPlainBoard(box.checked);
    window.dispatchEvent(new HashChangeEvent("hashchange"));
  });
  return h("div", { class: "check" }, box, h("label", { for: "plain-board" },
    t("Plain board: the game laid out as text, as the server describes it")));
}

/** A link to copy and send. */
function linkBox(id: string, what: string, link: string): HTMLElement {
  const input = h("input", { id, readonly: true, value: link }) as HTMLInputElement;
  return h("div", { class: "invite" }, h("label", { for: id }, what),
    input, h("button", { type: "button", "aria-label": t("copy: {what}", { what }), onclick: () => {
      input.select();
      void navigator.clipboard?.writeText(link).then(() => announce(t("Link copied.")));
    } }, t("Copy")));
}
