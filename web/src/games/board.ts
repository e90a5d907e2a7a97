// What a game's own board may add to the generic table: how its view is drawn and which
// things on the table each legal action uses, so that clicking one of them offers exactly
// the actions the view listed with it. A game without a file here is drawn generically.
import type { Action, GameView } from "../client";
import type { Names } from "../describe";
import { h } from "../dom";
import { actionLabels } from "../layout";

/** Called with the key of a thing on the table the player clicked. */
export type Pick = (key: string) => void;

export interface GameBoard {
  /** The table drawn from a view whose game has started (`view.game` is set). */
  draw(view: GameView, names: Names, pick: Pick | null): HTMLElement;
  /** The keys of the things an action uses (`hand:<card>`, `slot:<seat>:<n>`, …); an
   *  action using none is offered as a button only. Without it, the keys are those the
   *  API's label of the action says it uses (the layout's ids). */
  involves?(action: Action): string[];
  /** The table's title, refined from the game type's by the options (e.g. a variant). */
  title?(view: GameView, title: string): string;
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
