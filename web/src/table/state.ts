// A table's state in this page: the newest view of the game it has, the log as far as it
// has read it, and what the player is doing (a thing picked on the table, a move on its
// way). No DOM here: the rendering reads it, the stream and the moves change it.
import type { Action, GameEvent, GameView } from "../client";
import { usesOf, type GameBoard } from "../games/board";

export type EventTaken = "added" | "old" | "gap";

export class TableState {
  picked: string | null = null; // the key of a thing on the table that several moves use
  busy = false; // a move is on its way
  lastSeq: number;

  constructor(public view: GameView, readonly log: GameEvent[], readonly board: GameBoard) {
    this.lastSeq = log.length ? log[log.length - 1].seq : 0;
  }

  get myTurn(): boolean {
    return this.view.you !== null && this.view.to_act.includes(this.view.you);
  }

  get over(): boolean {
    return this.view.status === "finished" || this.view.status === "cancelled";
  }

  get legal(): Action[] {
    return this.view.legal_actions as Action[];
  }

  /** The legal actions that use the thing with this key. */
  using(key: string): Action[] {
    const uses = usesOf(this.view, this.board);
    return this.legal.filter((_a, i) => uses[i].includes(key));
  }

  /** Takes a view unless it is older than the one held; says whether it became the
   *  viewer's turn with it (null: the view was older and is dropped). */
  takeView(next: GameView): { turnBegan: boolean } | null {
    if (next.version < this.view.version) return null;
    const was = this.myTurn;
    this.view = next;
    this.picked = null;
    return { turnBegan: !was && this.myTurn };
  }

  /** Takes the next event of the log; an event after a gap is not taken (read the gap). */
  takeEvent(ev: GameEvent): EventTaken {
    if (ev.seq <= this.lastSeq) return "old";
    if (ev.seq > this.lastSeq + 1) return "gap";
    this.log.push(ev);
    this.lastSeq = ev.seq;
    return "added";
  }
}
