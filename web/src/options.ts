// A game's creation options as inputs, each drawn from the option's own description in
// GET /games/types (its type, default, bounds, choices): nothing about any game is written
// here. Each input reads back the value to send, or undefined for the default.
import type { Schemas } from "./client";
import { h } from "./dom";
import { t } from "./i18n";

type Option = Schemas["Option"];

export interface OptionInput {
  element: HTMLElement;
  read(): unknown;
  /** The number of players changed (seat choices follow it). */
  players(n: number): void;
}

const label = (option: Option, id: string) => h("label", { for: id }, option.description ?? option.name);
const noop = () => undefined;

function checkbox(option: Option, id: string): OptionInput {
  const input = h("input", { id, type: "checkbox", name: option.name, checked: option.default === true }) as HTMLInputElement;
  return { element: h("div", { class: "check" }, input, label(option, id)), read: () => input.checked, players: noop };
}

function integer(option: Option, id: string): OptionInput {
  const input = h("input", { id, type: "number", name: option.name, inputmode: "numeric",
    value: typeof option.default === "number" ? option.default : "",
    placeholder: option.default === null ? t("automatic") : null,
    min: option.minimum ?? null, max: option.maximum ?? null }) as HTMLInputElement;
  return { element: h("div", {}, label(option, id), input),
           read: () => (input.value === "" ? undefined : Number(input.value)), players: noop };
}

function seat(option: Option, id: string): OptionInput {
  const select = h("select", { id, name: option.name, "data-kind": "seat" }) as HTMLSelectElement;
  const players = (n: number) => {
    const was = select.value || String(option.default ?? "random");
    select.replaceChildren(h("option", { value: "random" }, t("at random")),
      ...Array.from({ length: n }, (_, i) => h("option", { value: i }, t("seat {n}", { n: i + 1 }))));
    select.value = Number(was) < n || was === "random" ? was : "random";
  };
  return { element: h("div", {}, label(option, id), select), players,
           read: () => (select.value === "random" ? "random" : Number(select.value)) };
}

function choice(option: Option, id: string): OptionInput {
  const choices = option.choices ?? [];
  const select = h("select", { id, name: option.name }, choices.map((c, i) => h("option", {
    value: i, selected: JSON.stringify(c) === JSON.stringify(option.default) }, c === null ? t("none") : String(c)))) as HTMLSelectElement;
  return { element: h("div", {}, label(option, id), select), read: () => choices[Number(select.value)], players: noop };
}

/** A mapping of kinds to counts (e.g. a deck's make-up): a count for each kind of the
 *  default, their total held within the option's bounds. */
function composition(option: Option, id: string, counts: Record<string, number>): OptionInput {
  const total = h("output", { id: `${id}-total`, "aria-live": "polite" });
  const inputs = Object.entries(counts).map(([kind, n]) => h("input", {
    id: `${id}-${kind}`, type: "number", min: 0, max: option.maximum ?? null, value: n, inputmode: "numeric",
    "data-kind": kind }) as HTMLInputElement);
  const read = () => Object.fromEntries(inputs.map((i) => [i.dataset.kind!, Number(i.value || 0)]));
  const sum = () => {
    const n = Object.values(read()).reduce((a, b) => a + b, 0);
    const low = option.minimum ?? 0;
    const high = option.maximum ?? Infinity;
    total.textContent = t("{n} in all", { n }) + (n < low ? ` — ${t("at least {n}", { n: low })}`
      : n > high ? ` — ${t("at most {n}", { n: high })}` : "");
    total.className = n < low || n > high ? "error" : "";
  };
  inputs.forEach((i) => i.addEventListener("input", sum));
  sum();
  return {
    element: h("fieldset", { class: "composition", id, "aria-describedby": `${id}-total` },
      h("legend", {}, option.description ?? option.name),
      h("div", { class: "counts" }, inputs.map((i) => h("label", { class: "count", for: i.id }, i.dataset.kind!, i))),
      h("p", {}, t("Total:"), " ", total)),
    read, players: noop,
  };
}

/** Anything else: its value as JSON, the default to start from. */
function json(option: Option, id: string): OptionInput {
  const input = h("textarea", { id, name: option.name, rows: 2, spellcheck: false }) as HTMLTextAreaElement;
  input.value = JSON.stringify(option.default ?? null);
  return { element: h("div", {}, label(option, id), input), players: noop,
           read: () => { try { return JSON.parse(input.value); } catch { return input.value; } } };
}

export function optionInput(option: Option): OptionInput {
  const id = `option-${option.name}`;
  const fallback = option.default;
  if (option.type === "bool") return checkbox(option, id);
  if (option.choices) return choice(option, id);
  if (option.type === "int") return integer(option, id);
  if (option.type === "seat_or_random") return seat(option, id);
  if (fallback && typeof fallback === "object" && !Array.isArray(fallback)
      && Object.values(fallback).every((v) => typeof v === "number")) {
    return composition(option, id, fallback as Record<string, number>);
  }
  return json(option, id);
}
