// The lobby: the game types and their options, a new game with human and bot seats,
// the open games with a free seat, and the games this browser holds a seat in.
import { api, bearer, unwrap, type GameType, type GameView, type Schemas } from "./client";
import { announce, h, mount, when } from "./dom";
import {
  heldSeats, keepCreatorToken, keepPlayer, keepPlayerName, keepSeat, player, playerName,
} from "./store";
import { optionInput, type OptionInput } from "./options";
import { gameTypes } from "./types";

const DEADLINES: [string, number | null][] = [
  ["No deadline", null], ["1 minute a move", 60], ["1 hour a move", 3600],
  ["1 day a move", 86400], ["3 days a move", 259200]];
const SEAT_KINDS = [["me", "Me"], ["human", "A person (invite)"], ["bot:random", "Bot (random)"],
                    ["bot:basic", "Bot (basic)"], ["bot:strong", "Bot (strong)"]];

export async function showLobby(): Promise<void> {
  mount(h("h1", {}, "Lobby"), h("p", {}, "Loading the games…"));
  const types = await gameTypes();
  const form = newGameForm(types);
  const open = h("section", { "aria-labelledby": "open-h" }, h("h2", { id: "open-h" }, "Open tables"));
  const mine = h("section", { "aria-labelledby": "mine-h" }, h("h2", { id: "mine-h" }, "My games"));
  const playing = h("section", { "aria-labelledby": "playing-h" }, h("h2", { id: "playing-h" }, "Being played"));
  mount(h("h1", {}, "Lobby"), h("div", { class: "lobby" }, form,
    h("div", {}, playerBox(), mine, open, playing)));
  await Promise.all([fillMyGames(mine), fillOpenGames(open, types), fillActiveGames(playing, types)]);
}

/** Become a player (one key for all one's games, rated), or forget the key here. */
function playerBox(): HTMLElement {
  const me = player();
  if (me) {
    return h("section", { class: "player", "aria-label": "you" },
      h("p", {}, "You play as ", h("strong", {}, me.name), "; your key finds your seats."),
      h("button", { type: "button", class: "ghost", onclick: () => {
        if (confirm("Forget your player key in this browser? Keep a copy to come back.")) {
          keepPlayer(null);
          void showLobby();
        }
      } }, "Forget my key"));
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
  return h("details", { class: "player" }, h("summary", {}, "Become a player (a name, rated games)"),
    h("form", { onsubmit: submit as EventListener },
      h("label", { for: "player-name" }, "Player name"), name, error,
      h("button", { type: "submit" }, "Become a player")));
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
    types.map((t) => h("option", { value: t.id }, t.title))) as HTMLSelectElement;
  const options = h("fieldset", { class: "options" });
  const seats = h("fieldset", { class: "seats" });
  const count = h("input", { id: "seat-count", type: "number", value: 3 }) as HTMLInputElement;
  const name = h("input", { id: "my-name", name: "name", value: playerName() || "",
                            autocomplete: "nickname", required: true, maxlength: 24 }) as HTMLInputElement;
  const deadline = h("select", { id: "deadline" },
    DEADLINES.map(([label, s]) => h("option", { value: s ?? "" }, label))) as HTMLSelectElement;
  const error = h("p", { class: "error", role: "alert" });
  const rules = h("details", {});

  const chosen = () => types.find((t) => t.id === typeSelect.value)!;
  let inputs: OptionInput[] = [];
  const drawSeats = () => {
    const n = Number(count.value);
    inputs.forEach((i) => i.players(n));
    const rows = Array.from({ length: n }, (_, i) => h("label", { class: "seat-row" },
      `Seat ${i + 1} `, h("select", { name: `seat-${i}`, "data-seat": i },
        SEAT_KINDS.map(([v, label]) => h("option", {
          value: v, selected: (i === 0 ? v === "me" : v === "bot:basic") }, label)))));
    seats.replaceChildren(h("legend", {}, "Seats"), ...rows);
  };
  const drawOptions = () => {
    const type = chosen();
    count.min = String(type.min_players);
    count.max = String(type.max_players);
    count.value = String(Math.min(Math.max(Number(count.value), type.min_players), type.max_players));
    inputs = type.options.map(optionInput);
    options.replaceChildren(h("legend", {}, "Options"), ...inputs.map((i) => i.element));
    rules.replaceChildren(h("summary", {}, "The rulings of this server"),
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
        ? { kind: "bot" as const, level: k.slice(4) as "random" | "basic" | "strong" }
        : k === "me" && player() ? { kind: "human" as const, me: true } : { kind: "human" as const }),
      deadline_s: deadline.value === "" ? null : Number(deadline.value),
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
    h("h2", { id: "new-h" }, "New game"),
    h("label", { for: "game-type" }, "Game"), typeSelect,
    h("label", { for: "my-name" }, "Your name"), name,
    h("label", { for: "seat-count" }, "Players"), count,
    seats, options,
    h("label", { for: "deadline" }, "Time to move"), deadline,
    rules, error,
    h("button", { type: "submit", class: "primary" }, "Create the table"));
}

async function fillMyGames(section: HTMLElement): Promise<void> {
  const seats = heldSeats();
  const me = player();
  if (me) {
    const inbox = await api.GET("/players/me/games", {
      params: { query: { status: "active", page_size: 20 } }, headers: bearer(me.key) });
    const open = await api.GET("/players/me/games", {
      params: { query: { status: "open", page_size: 20 } }, headers: bearer(me.key) });
    const entries = [...(inbox.data ?? []), ...(open.data ?? [])];
    section.append(entries.length ? h("ul", { class: "games", "aria-label": "as a player" },
      entries.map((e) => h("li", {}, h("a", { href: `#/game/${e.id}` }, `${e.type} · seat ${e.seat + 1}`),
        " — ", e.status === "open" ? (e.invited ? "you are invited" : "waiting for players")
          : e.my_turn ? `your turn${e.deadline ? ` (${when(e.deadline)} left)` : ""}` : "waiting for the others")))
      : h("p", {}, "No game of yours is being played."));
  }
  if (!seats.length) {
    if (me) return;
    section.append(h("p", {}, "None yet: create a table or take a seat at an open one."));
    return;
  }
  const list = h("ul", { class: "games" });
  section.append(list);
  await Promise.all(seats.slice(0, 20).map(async (held) => {
    const item = h("li", {}, h("a", { href: `#/game/${held.game}` }, `${held.type} · seat ${held.seat + 1}`));
    list.append(item);
    const answer = await api.GET("/games/{game_id}", {
      params: { path: { game_id: held.game }, header: {} }, headers: bearer(held.token) });
    if (!answer.data) {
      item.append(" — ", answer.error?.message ?? "gone");
      return;
    }
    item.append(" — ", gameStatus(answer.data, held.seat));
  }));
}

function gameStatus(view: GameView, seat: number | null): string {
  if (view.status === "finished") return view.outcome ? `finished, your place ${view.outcome.places[seat ?? 0]}` : "finished";
  if (view.status === "open") return `waiting for ${view.seats.filter((s) => !s.taken).length} player(s)`;
  if (view.status === "cancelled") return "cancelled";
  if (seat !== null && view.to_act.includes(seat)) {
    const deadline = view.seats[seat].deadline;
    return `your turn${deadline ? ` (${when(deadline)} left)` : ""}`;
  }
  return "waiting for the others";
}

async function fillOpenGames(section: HTMLElement, types: GameType[]): Promise<void> {
  const games = unwrap(await api.GET("/games", {
    params: { query: { status: "open", has_free_seat: true, page_size: 20 }, header: {} } }));
  const held = new Set(heldSeats().map((s) => s.game));
  const title = (id: string) => types.find((t) => t.id === id)?.title ?? id;
  if (!games.length) {
    section.append(h("p", {}, "No table is waiting for players."));
    return;
  }
  section.append(h("ul", { class: "games" }, games.map((g) => h("li", {},
    `${title(g.type)} · ${g.seats.filter((s) => s.taken).length}/${g.seats.length} seated `,
    held.has(g.id) ? h("a", { href: `#/game/${g.id}` }, "your table")
      : h("a", { href: `#/join/${g.id}`, class: "button" }, "Join")))));
}

async function fillActiveGames(section: HTMLElement, types: GameType[]): Promise<void> {
  const games = unwrap(await api.GET("/games", {
    params: { query: { status: "active", page_size: 10 }, header: {} } }));
  const title = (id: string) => types.find((t) => t.id === id)?.title ?? id;
  section.append(games.length ? h("ul", { class: "games" }, games.map((g) => h("li", {},
    `${title(g.type)} · ${g.seats.map((s) => s.name ?? (s.kind === "bot" ? "bot" : "someone")).join(", ")} `,
    h("a", { href: `#/games/${g.id}`, class: "button" }, "Watch"))))
    : h("p", {}, "No game is being played just now."));
}

export async function showJoin(gameId: string): Promise<void> {
  const view = unwrap(await api.GET("/games/{game_id}", {
    params: { path: { game_id: gameId }, header: {} } }));
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
  mount(h("h1", {}, "Take a seat"),
    h("p", {}, `A ${view.type} table with ${view.seats.map((s) => s.taken ? s.name ?? (s.kind === "bot" ? `a ${s.level} bot` : "someone") : "a free seat").join(", ")}.`),
    h("form", { onsubmit: submit as EventListener },
      h("label", { for: "join-name" }, "Your name"), name, error,
      h("button", { type: "submit", class: "primary" }, "Sit down")));
}
