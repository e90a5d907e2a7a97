// What this browser keeps: the seats it holds (their secret tokens), the creator tokens of
// the games it made, and the name it plays under. Only in this browser's localStorage.
export interface HeldSeat {
  game: string;
  type: string;
  seat: number;
  token: string;
  name: string;
  at: number;
}

const SEATS = "donkeypost.seats.v1";
const CREATED = "donkeypost.created.v1";
const NAME = "donkeypost.name.v1";

function read<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export function heldSeats(): HeldSeat[] {
  return read<HeldSeat[]>(SEATS, []).sort((a, b) => b.at - a.at);
}

export function seatIn(game: string): HeldSeat | undefined {
  return heldSeats().find((s) => s.game === game);
}

export function keepSeat(seat: HeldSeat): void {
  const others = heldSeats().filter((s) => s.game !== seat.game);
  localStorage.setItem(SEATS, JSON.stringify([seat, ...others]));
}

export function forgetSeat(game: string): void {
  localStorage.setItem(SEATS, JSON.stringify(heldSeats().filter((s) => s.game !== game)));
}

export function keepCreatorToken(game: string, token: string): void {
  localStorage.setItem(CREATED, JSON.stringify({ ...read(CREATED, {}), [game]: token }));
}

/** The creator token this browser got for a game it made, if any. */
export function creatorToken(game: string): string | undefined {
  return read<Record<string, string>>(CREATED, {})[game];
}

export function playerName(): string {
  return read<string>(NAME, "");
}

export function keepPlayerName(name: string): void {
  localStorage.setItem(NAME, JSON.stringify(name));
}

/** The player this browser plays as, if it became one: their key finds their seat in each
 *  of their games (a seat token is not needed then). */
export interface Player {
  id: string;
  name: string;
  key: string;
}

const PLAYER = "donkeypost.player.v1";

export function player(): Player | null {
  return read<Player | null>(PLAYER, null);
}

export function keepPlayer(p: Player | null): void {
  if (p === null) localStorage.removeItem(PLAYER);
  else localStorage.setItem(PLAYER, JSON.stringify(p));
}

/** What this browser sends for a game: the seat token it holds there, else its player key. */
export function credentialFor(game: string): string | undefined {
  return seatIn(game)?.token ?? player()?.key;
}
