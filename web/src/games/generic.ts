// The board of a game the page has no file for: the public view drawn from what it holds,
// with nothing known of the game (its legal actions are the buttons below the board).
import type { GameView } from "../client";
import type { Names } from "../describe";
import { h } from "../dom";
import type { GameBoard } from "./board";

function drawValue(value: unknown, depth: number): HTMLElement | string {
  if (value === null || value === undefined) return "—";
  if (typeof value !== "object") return String(value);
  if (depth > 4) return "…";
  if (Array.isArray(value)) {
    return value.every((v) => v === null || typeof v !== "object")
      ? value.map((v) => (v === null ? "—" : String(v))).join(", ") || "none"
      : h("ol", {}, value.map((v) => h("li", {}, drawValue(v, depth + 1))));
  }
  return h("dl", {}, Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    [h("dt", {}, k.replace(/_/g, " ")), h("dd", {}, drawValue(v, depth + 1))]));
}

export const genericBoard: GameBoard = {
  involves: () => [],
  draw: (view: GameView, _names: Names) =>
    h("div", { class: "board generic-board" }, drawValue(view.game, 0)),
};
