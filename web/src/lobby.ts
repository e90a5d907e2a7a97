// The lobby: the game types and their options, a new game with human and bot seats,
// the open games with a free seat, and the games this browser holds a seat in.
import { api, bearer, unwrap, type GameType, type GameView, type Schemas } from "./client";
import { announce, h, mount, when } from "./dom";
import {
  heldSeats, keepCreatorToken, keepPlayer, keepPlayerName, keepSeat, player, playerName,
} from "./store";
import { optionInput, type OptionInput } from "./options";
import { gameTypes } from "./types";
import { ready, t, tn } from "./i18n";
import { followPlayer } from "./playerStream";
import { botLevel } from "./table/render";

// The clocks a table may have: a deadline per move (seconds), or a correspondence bank
// ("bank:<seconds>:<increment>": the seat's time runs only while the game waits for it).
const CLOCKS: [() => string, string][] = [
  [() => t("No deadline"), ""], [() => t("1 minute a move"), "60"], [() => t("1 hour a move"), "3600"],
  [() => t("1 day a move"), "86400"], [() => t("3 days a move"), "259200"],
  [() => t("Correspondence: 3 days, a day more each move"), "bank:259200:86400"],
  [() => t("Correspondence: 7 days, a day more each move"), "bank:604800:86400"],
  [() => t("Correspondence: 14 days, 2 days more each move"), "bank:1209600:172800"]];

/** The clock chosen, as the body of POST /games says it. */
function clockOf(value: string): Pick<Schemas["CreateGame"], "deadline_s" | "time_control"> {
  if (!value.startsWith("bank:")) return { deadline_s: value === "" ? null : Number(value) };
  const [, bank, increment] = value.split(":").map(Number);
  return { time_control: { kind: "correspondence", bank_s: bank, increment_s: increment, vacation: true } };
}
const SEAT_KINDS: [string, () => string][] = [["me", () => t("Me")], ["human", () => t("A person (invite)")],
  ["bot:random", () => t("Bot (random)")], ["bot:basic", () => t("Bot (basic)")],
  ["bot:strong", () => t("Bot (strong)")], ["bot:expert", () => t("Bot (expert)")]];

/** A game type's title, as the API gives it. */
function titleOf(types: GameType[], id: string): string {
  return types.find((type) => type.id === id)?.title ?? id;
}

function yourTurn(deadline: number | null | undefined): string {
  return deadline ? t("your turn ({time} left)", { time: when(deadline) }) : t("your turn");
}

export async function showLobby(): Promise<void> {
  mount(h("h1", {}, t("Lobby")), h("p", {}, t("Loading the games…")));
  const [types] = await Promise.all([gameTypes(), ready]);
  const form = newGameForm(types);
  const open = h("section", { "aria-labelledby": "open-h" }, h("h2", { id: "open-h" }, t("Open tables")));
  const mine = h("section", { "aria-labelledby": "mine-h" }, h("h2", { id: "mine-h" }, t("My games")));
  const playing = h("section", { "aria-labelledby": "playing-h" }, h("h2", { id: "playing-h" }, t("Being played")));
  mount(h("h1", {}, t("Lobby")), h("div", { class: "lobby" }, form,
    h("div", {}, playerBox(), mine, open, playing,
      h("p", { class: "links" }, h("a", { href: "#/replay" }, t("Replay a game from its log file"))))));
  await Promise.all([fillMyGames(mine, types), fillOpenGames(open, types), fillActiveGames(playing, types)]);
  followMyGames(mine, types);
}

/** A player's games change as their stream says (their turn, an invitation, an end): the
 *  list is read again then, never on a timer. The stream closes when the lobby is left. */
function followMyGames(section: HTMLElement, types: GameType[]): void {
  const me = player();
  if (!me) return;
  let reading = Promise.resolve();
  const stop = followPlayer(me.key, () => {
    reading = reading.then(async () => {
      const fresh = h("div");
      await fillPlayerGames(fresh, types, me.key);
      const now = fresh.firstElementChild;
      if (now) section.querySelector(".player-games")?.replaceWith(now);
    });
  });
  const leave = () => {
    stop();
    window.removeEventListener("hashchange", leave);
  };
  window.addEventListener("hashchange", leave);
}

/** Become a player (one key for all one's games, rated), or forget the key here. */
function playerBox(): HTMLElement {
  const me = player();
  if (me) {
    return h("section", { class: "player", "aria-label": t("you") },
      h("p", {}, t("You play as"), " ", h("strong", {}, me.name), ". ", t("Your key finds your seats.")),
      h("button", { type: "button", class: "ghost", onclick: () => {
        if (confirm(t("Forget your player key in this browser? Keep a copy to come back."))) {
          keepPlayer(null);
          void showLobby();
        }
      } }, t("Forget my key")));
  }
  const name = h("input", { id: "player-name", value: playerName(), maxlength: 24, required: true,
                            autocomplete: "nickname" }) as HTMLInputElement;
  const error = h("p", { class: "error", role: "alert" });
  const submit = async (ev: Event) => {
    ev.preventDefault();
    try {
      const made = unwrap(await api.POST("/players", { body: { name: name.value } }));
      keepPlayer({ id: made.id, name: made.name, key: made.key });
      keepPlayerName(made.name);
      await showLobby();
    } catch (err) {
      error.textContent = (err as Error).message;
    }
  };
  return h("details", { class: "player" }, h("summary", {}, t("Become a player (a name, rated games)")),
    h("form", { onsubmit: submit as EventListener },
      h("label", { for: "player-name" }, t("Player name")), name, error,
      h("button", { type: "submit" }, t("Become a player"))));
}

export async function joinGame(gameId: string, type: string, name: string): Promise<void> {
  const me = player();
  const joined = unwrap(await api.POST("/games/{game_id}/players", {
    params: { path: { game_id: gameId } }, body: me ? {} : { name }, headers: bearer(me?.key) }));
  if (joined.token) {
    keepSeat({ game: gameId, type, seat: joined.seat, token: joined.token, name, at: Date.now() });
  }
}

function newGameForm(types: GameType[]): HTMLElement {
  const typeSelect = h("select", { id: "game-type", name: "type" },
    types.map((type) => h("option", { value: type.id }, type.title))) as HTMLSelectElement;
  const options = h("fieldset", { class: "options" });
  const seats = h("fieldset", { class: "seats" });
  const count = h("input", { id: "seat-count", type: "number", value: 3 }) as HTMLInputElement;
  const name = h("input", { id: "my-name", name: "name", value: playerName() || "",
                            autocomplete: "nickname", required: true, maxlength: 24 }) as HTMLInputElement;
  const deadline = h("select", { id: "deadline" },
    CLOCKS.map(([label, value]) => h("option", { value }, label()))) as HTMLSelectElement;
  const error = h("p", { class: "error", role: "alert" });
  const rules = h("details", {});

  const chosen = () => types.find((type) => type.id === typeSelect.value)!;
  let inputs: OptionInput[] = [];
  const drawSeats = () => {
    const n = Number(count.value);
    inputs.forEach((i) => i.players(n));
    const rows = Array.from({ length: n }, (_, i) => h("label", { class: "seat-row" },
      `${t("Seat {n}", { n: i + 1 })} `, h("select", { name: `seat-${i}`, "data-seat": i },
        SEAT_KINDS.map(([v, label]) => h("option", {
          value: v, selected: (i === 0 ? v === "me" : v === "bot:basic") }, label())))));
    seats.replaceChildren(h("legend", {}, t("Seats")), ...rows);
  };
  const drawOptions = () => {
    const type = chosen();
    count.min = String(type.min_players);
    count.max = String(type.max_players);
    count.value = String(Math.min(Math.max(Number(count.value), type.min_players), type.max_players));
    inputs = type.options.map(optionInput);
    options.replaceChildren(h("legend", {}, t("Options")), ...inputs.map((i) => i.element));
    rules.replaceChildren(h("summary", {}, t("The rulings of this server")),
      h("ul", {}, type.rules.map((r) => h("li", {}, r))));
    drawSeats();
  };
  typeSelect.addEventListener("change", drawOptions);
  count.addEventListener("change", drawSeats);
  drawOptions();

  const submit = async (ev: Event) => {
    ev.preventDefault();
    error.textContent = "";
    const type = chosen();
    const kinds = [...seats.querySelectorAll("select")].map((s) => (s as HTMLSelectElement).value);
    const body = {
      type: type.id,
      options: Object.fromEntries(type.options.map((o, i) => [o.name, inputs[i].read()])
        .filter(([, v]) => v !== undefined)),
      seats: kinds.map((k) => k.startsWith("bot:")
        ? { kind: "bot" as const, level: k.slice(4) as "random" | "basic" | "strong" | "expert" }
        : k === "me" && player() ? { kind: "human" as const, me: true } : { kind: "human" as const }),
      ...clockOf(deadline.value),
    } as Schemas["CreateGame"];
    try {
      const me = player();
      const created = unwrap(await api.POST("/games", { body, headers: bearer(me?.key) }));
      if (created.creator_token) keepCreatorToken(created.id, created.creator_token);
      keepPlayerName(name.value);
      // A player's own seat is theirs already (`me`); anyone else takes theirs now.
      if (kinds.includes("me") && !me) await joinGame(created.id, type.id, name.value);
      location.hash = `#/game/${created.id}`;
    } catch (err) {
      error.textContent = (err as Error).message;
      announce((err as Error).message);
    }
  };
  return h("form", { class: "new-game", onsubmit: submit as EventListener, "aria-labelledby": "new-h" },
    h("h2", { id: "new-h" }, t("New game")),
    h("label", { for: "game-type" }, t("Game")), typeSelect,
    h("label", { for: "my-name" }, t("Your name")), name,
    h("label", { for: "seat-count" }, t("Players")), count,
    seats, options,
    h("label", { for: "deadline" }, t("Time to move")), deadline,
    rules, error,
    h("button", { type: "submit", class: "primary" }, t("Create the table")));
}

/** The player's games (theirs and the invitations), with a badge counting those where it is
 *  their turn. */
async function fillPlayerGames(section: HTMLElement, types: GameType[], key: string): Promise<void> {
  const title = (id: string) => titleOf(types, id);
  const inbox = await api.GET("/players/me/games", {
    params: { query: { status: "active", page_size: 20 } }, headers: bearer(key) });
  const open = await api.GET("/players/me/games", {
    params: { query: { status: "open", page_size: 20 } }, headers: bearer(key) });
  const entries = [...(inbox.data ?? []), ...(open.data ?? [])];
  const waiting = entries.filter((e) => e.my_turn).length;
  const invited = entries.filter((e) => e.invited).length;
  const badge = h("p", { class: "badge", "data-my-turn": String(waiting),
                         "data-invited": String(invited) },
    waiting ? tn("Your turn in {n} game", "Your turn in {n} games", waiting)
      : t("Not your turn anywhere"),
    invited ? ` · ${tn("{n} invitation", "{n} invitations", invited)}` : "");
  const list = entries.length ? h("ul", { class: "games", "aria-label": t("as a player") },
    entries.map((e) => h("li", {}, h("a", { href: `#/game/${e.id}` }, `${title(e.type)} · ${t("seat {n}", { n: e.seat + 1 })}`),
      " — ", e.status === "open" ? (e.invited ? t("you are invited") : t("waiting for players"))
        : e.my_turn ? yourTurn(e.deadline) : t("waiting for the others"))))
    : h("p", {}, t("No game of yours is being played."));
  section.append(h("div", { class: "player-games" }, badge, list));
}

async function fillMyGames(section: HTMLElement, types: GameType[]): Promise<void> {
  const title = (id: string) => titleOf(types, id);
  const seats = heldSeats();
  const me = player();
  if (me) await fillPlayerGames(section, types, me.key);
  if (!seats.length) {
    if (me) return;
    section.append(h("p", {}, t("None yet: create a table or take a seat at an open one.")));
    return;
  }
  const list = h("ul", { class: "games" });
  section.append(list);
  await Promise.all(seats.slice(0, 20).map(async (held) => {
    const item = h("li", {}, h("a", { href: `#/game/${held.game}` }, `${title(held.type)} · ${t("seat {n}", { n: held.seat + 1 })}`));
    list.append(item);
    const answer = await api.GET("/games/{game_id}", {
      params: { path: { game_id: held.game }, header: {} }, headers: bearer(held.token) });
    if (!answer.data) {
      item.append(" — ", answer.error?.message ?? t("gone"));
      return;
    }
    item.append(" — ", gameStatus(answer.data, held.seat));
  }));
}

function gameStatus(view: GameView, seat: number | null): string {
  if (view.status === "finished") {
    return view.outcome ? t("finished, your place: {n}", { n: view.outcome.places[seat ?? 0] }) : t("finished");
  }
  if (view.status === "open") {
    return tn("waiting for {n} player", "waiting for {n} players", view.seats.filter((s) => !s.taken).length);
  }
  if (view.status === "cancelled") return t("cancelled");
  if (seat !== null && view.to_act.includes(seat)) {
    const deadline = view.seats[seat].deadline;
    return yourTurn(deadline);
  }
  return t("waiting for the others");
}

async function fillOpenGames(section: HTMLElement, types: GameType[]): Promise<void> {
  const games = unwrap(await api.GET("/games", {
    params: { query: { status: "open", has_free_seat: true, page_size: 20 }, header: {} } }));
  const held = new Set(heldSeats().map((s) => s.game));
  const title = (id: string) => titleOf(types, id);
  if (!games.length) {
    section.append(h("p", {}, t("No table is waiting for players.")));
    return;
  }
  section.append(h("ul", { class: "games" }, games.map((g) => h("li", {},
    `${title(g.type)} · ${t("{taken}/{seats} seated", { taken: g.seats.filter((s) => s.taken).length, seats: g.seats.length })} `,
    held.has(g.id) ? h("a", { href: `#/game/${g.id}` }, t("your table"))
      : h("a", { href: `#/join/${g.id}`, class: "button" }, t("Join"))))));
}

async function fillActiveGames(section: HTMLElement, types: GameType[]): Promise<void> {
  const games = unwrap(await api.GET("/games", {
    params: { query: { status: "active", page_size: 10 }, header: {} } }));
  const title = (id: string) => titleOf(types, id);
  section.append(games.length ? h("ul", { class: "games" }, games.map((g) => h("li", {},
    `${title(g.type)} · ${g.seats.map((s) => s.name ?? (s.kind === "bot" ? t("bot") : t("someone"))).join(", ")} `,
    h("a", { href: `#/games/${g.id}`, class: "button" }, t("Watch")))))
    : h("p", {}, t("No game is being played just now.")));
}

export async function showJoin(gameId: string): Promise<void> {
  const [view, types] = await Promise.all([api.GET("/games/{game_id}", {
    params: { path: { game_id: gameId }, header: {} } }).then(unwrap), gameTypes(), ready]);
  const name = h("input", { id: "join-name", value: playerName(), required: true, maxlength: 24,
                            autocomplete: "nickname" }) as HTMLInputElement;
  const error = h("p", { class: "error", role: "alert" });
  const submit = async (ev: Event) => {
    ev.preventDefault();
    try {
      keepPlayerName(name.value);
      await joinGame(gameId, view.type, name.value);
      location.hash = `#/game/${gameId}`;
    } catch (err) {
      error.textContent = (err as Error).message;
    }
  };
  mount(h("h1", {}, t("Take a seat")),
    h("p", {}, t("A table of {game} with {seats}.", { game: titleOf(types, view.type),
      seats: view.seats.map((s) => s.taken ? s.name ?? (s.kind === "bot" ? t("a bot ({level})", { level: botLevel(s.level) })
        : t("someone")) : t("a free seat")).join(", ") })),
    h("form", { onsubmit: submit as EventListener },
      h("label", { for: "join-name" }, t("Your name")), name, error,
      h("button", { type: "submit", class: "primary" }, t("Sit down"))));
}
