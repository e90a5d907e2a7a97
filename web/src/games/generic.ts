// The board of any game, drawn from the layout its view describes (zones of counters,
// cards and notes, in order), with nothing known of the game: the cards and zones that a
// legal action uses (its label's `uses`) become things to click.
import type { GameView } from "../client";
import type { Names } from "../words";
import { h } from "../dom";
import { t } from "../i18n";
import { actionLabels, layoutOf, type LayoutCard, type Zone } from "../layout";
import { clickable, type BoardContext, type GameBoard, type Pick } from "./board";

/** A card as the layout gives it: printed text, a tone, its name for screen readers. */
export function layoutCard(card: LayoutCard, extra = ""): HTMLElement {
  if (card.text === null) return h("span", { class: `card back ${extra}`, role: "img", "aria-label": card.name ?? t("face down") });
  const tone = card.tone ? `tone-${card.tone.replace(/[^a-z0-9-]/gi, "")}` : "";
  const long = card.text.length > 3 ? " long" : ""; // a word rather than a figure: smaller
  return h("span", { class: `card face ${tone}${long} ${extra}`, role: "img", "aria-label": card.name ?? card.text },
    h("span", { class: "corner", "data-text": card.text, "aria-hidden": "true" }),
    h("span", { class: "pip", "data-text": card.text, "aria-hidden": "true" }));
}

function drawZone(zone: Zone, names: Names, usable: Set<string>, pick: Pick | null, depth: number): HTMLElement {
  const heading = zone.title ?? (zone.seat !== null ? names(zone.seat) : null);
  const cardIds = new Set(zone.cards.map((c) => c.id));
  const card = (c: LayoutCard) => {
    const drawn = layoutCard(c, zone.kind === "hand" ? "" : "small");
    const shown = c.id ? clickable(drawn, c.id, usable, pick, c.name ?? c.text ?? "a card face down") : drawn;
    return c.caption !== null ? h("span", { class: "captioned" }, shown, h("span", { class: "caption" }, c.caption)) : shown;
  };
  return h("section", { class: `zone zone-${zone.kind.replace(/[^a-z]/g, "")}${zone.active ? " to-act" : ""}`,
                        "data-zone": zone.id, "aria-label": heading ?? zone.id },
    heading ? h(depth ? "h4" : "h3", {}, zone.active ? h("span", { class: "turn-mark" }, "▶ ") : "", heading,
      zone.active ? h("span", { class: "visually-hidden" }, " (to play)") : "") : "",
    zone.counters.length ? h("ul", { class: "counters" }, zone.counters.map((c) =>
      h("li", { "data-counter": c.id }, `${c.label} `, h("strong", {}, c.value)))) : "",
    zone.notes.map((n) => h("p", { class: "zone-note" }, n)),
    zone.cards.length ? h("div", { class: `cards ${zone.kind === "hand" ? "fan" : zone.kind === "pile" ? "stack" : ""}` },
      zone.cards.map(card)) : "",
    !cardIds.has(zone.id) && pick && usable.has(zone.id)
      ? h("button", { type: "button", class: "pick zone-pick", "data-key": zone.id, onclick: () => pick(zone.id) },
        heading ?? zone.id) : "",
    zone.zones.map((z) => drawZone(z, names, usable, pick, depth + 1)));
}

/** Any JSON value drawn as nested lists (a view, an event's data). */
export function genericValue(value: unknown, depth: number): HTMLElement | string {
  if (value === null || value === undefined) return "—";
  if (typeof value !== "object") return String(value);
  if (depth > 4) return "…";
  if (Array.isArray(value)) {
    return value.every((v) => v === null || typeof v !== "object")
      ? value.map((v) => (v === null ? "—" : String(v))).join(", ") || "none"
      : h("ol", {}, value.map((v) => h("li", {}, genericValue(v, depth + 1))));
  }
  return h("dl", {}, Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    [h("dt", {}, k.replace(/_/g, " ")), h("dd", {}, genericValue(v, depth + 1))]));
}

export const genericBoard: GameBoard = {
  draw(view: GameView, { names, pick }: BoardContext): HTMLElement {
    const layout = layoutOf(view);
    // (a server without layouts: the public view as it is)
    if (!layout) return h("div", { class: "board generic-board" }, genericValue(view.game, 0));
    const usable = new Set((actionLabels(view) ?? []).flatMap((l) => l.uses));
    return h("div", { class: "board generic-board" }, layout.zones.map((z) => drawZone(z, names, usable, pick, 0)));
  },
};
