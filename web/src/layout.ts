// What the API says a person reads about a game, in the game's own words: each legal
// action's label (with the things on the table it uses), each event's sentence, and a
// declarative layout of the view (zones of counters, cards and notes) that any game gives.
import type { GameEvent, GameView } from "./client";

export interface Text {
  text: string;
  msgid?: string;
  params?: Record<string, string | number>;
}

export interface ActionLabel extends Text {
  uses: string[];
}

export interface LayoutCard {
  id: string | null;
  text: string | null; // null: face down
  name: string | null;
  tone: string | null;
  caption: string | null;
}

export interface Counter {
  id: string;
  label: string;
  value: number | string;
}

export interface Zone {
  id: string;
  kind: "table" | "seat" | "hand" | "pile" | "row" | string;
  title: string | null;
  seat: number | null;
  active: boolean;
  counters: Counter[];
  cards: LayoutCard[];
  notes: string[];
  zones: Zone[];
}

export interface Layout {
  zones: Zone[];
}

type Described = { action_labels?: ActionLabel[] | null; layout?: Layout | null };

/** The labels of the view's legal actions, in their order, if the API gave them. */
export function actionLabels(view: GameView): ActionLabel[] | null {
  const labels = (view as Described).action_labels;
  return labels && labels.length === view.legal_actions.length ? labels : null;
}

export function layoutOf(view: GameView): Layout | null {
  return (view as Described).layout ?? null;
}

export function sentenceOf(event: GameEvent): string | null {
  return (event as { sentence?: Text | null }).sentence?.text ?? null;
}
