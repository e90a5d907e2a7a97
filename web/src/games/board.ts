// What a game's own board may add to the generic table: how its view is drawn and which
// things on the table each legal action uses, so that clicking one of them offers exactly
// the actions the view listed with it. A game without a file here is drawn generically.
import type { Action, GameEvent, GameView } from "../client";
import type { Names, Sentences } from "../words";
import { h, when } from "../dom";
import { t } from "../i18n";
import { actionLabels } from "../layout";

/** Called with the key of a thing on the table the player clicked. */
export type Pick = (key: string) => void;

/** What a board is drawn with besides the view: the seats' names, what to call when a
 *  thing is clicked (null: nothing may be), and the log up to the view. */
export interface BoardContext {
  names: Names;
  pick: Pick | null;
  log: readonly GameEvent[];
}

export interface GameBoard {
  /** The table drawn from a view whose game has started (`view.game` is set). */
  draw(view: GameView, ctx: BoardContext): HTMLElement;
  /** The keys of the things an action uses (`hand:<card>`, `slot:<seat>:<n>`, …); an
   *  action using none is offered as a button only. Without it, the keys are those the
   *  API's label of the action says it uses (the layout's ids). */
  involves?(action: Action): string[];
  /** The table's title, refined from the game type's by the options (e.g. a variant). */
  title?(view: GameView, title: string): string;
  /** The game's words when the server's are not there (a log replayed from a file). */
  sentences?: Sentences;
  label?(action: Action): string | undefined;
}

/** The keys of the things each legal action of the view uses, in their order. */
export function usesOf(view: GameView, board: GameBoard): string[][] {
  const labels = actionLabels(view);
  return view.legal_actions.map((a, i) => board.involves?.(a as Action) ?? labels?.[i]?.uses ?? []);
}

/** The keys every legal action of the view uses. */
export function usableKeys(view: GameView, board: GameBoard): Set<string> {
  return new Set(usesOf(view, board).flat());
}

/** A thing to click when some legal action uses it, else a plain picture. */
export function clickable(el: HTMLElement, key: string, usable: Set<string>, pick: Pick | null,
                          what: string): HTMLElement {
  if (!pick || !usable.has(key)) return el;
  return h("button", { class: "pick", type: "button", "data-key": key,
                       "aria-label": what, onclick: () => pick(key) }, el);
}

/** A seat's time left to act, counting down (the page's ticker updates `data-deadline`). */
export function seatClock(view: GameView, seat: number): HTMLElement | string {
  const deadline = view.seats[seat]?.deadline;
  return deadline ? h("span", { class: "clock", "data-deadline": deadline, title: t("time left to act") },
    ` · ${t("{time} left", { time: when(deadline) })}`) : "";
}

/** A hand of cards, fanned: each card overlaps the one before (--i numbers them). */
export function fan(cards: HTMLElement[], extra = ""): HTMLElement {
  cards.forEach((c, i) => c.style.setProperty("--i", String(i - (cards.length - 1) / 2)));
  return h("div", { class: `cards fan ${extra}` }, cards);
}
