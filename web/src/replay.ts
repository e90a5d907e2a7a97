// A replay: any moment of the game through GET /games/{id}/states/{seq} (the seat's view
// while the game runs, everything after the end), stepped with a slider or the arrow keys;
// a finished game's log is verified here, in the browser.
import { api, bearer, unwrap, type GameView } from "./client";
import { h, mount } from "./dom";
import { t } from "./i18n";
import { boardFor } from "./games";
import { credentialFor } from "./store";
import { readLog } from "./table/log";
import { describeEvent, seatNames } from "./table/render";
import { gameTypes, tableTitle } from "./types";
import { verifyLog } from "./verify";

export async function showReplay(gameId: string): Promise<() => void> {
  const token = credentialFor(gameId);
  const [now, events, types] = await Promise.all([api.GET("/games/{game_id}", {
    params: { path: { game_id: gameId }, header: {} }, headers: bearer(token) }).then(unwrap),
    readLog(gameId, token), gameTypes()]);
  const last = events.length;
  const slider = h("input", { id: "replay-slider", type: "range", min: 1, max: last, value: last, step: 1,
                              "aria-describedby": "replay-at" }) as HTMLInputElement;
  const at = h("p", { id: "replay-at", "aria-live": "polite" });
  const board = h("div", { id: "replay-board" });
  const verified = h("section", { id: "verified", class: "verified", "aria-label": "verification" });
  let wanted = last;

  const show = async (seq: number) => {
    wanted = seq;
    slider.value = String(seq);
    const ev = events[seq - 1];
    const state = unwrap(await api.GET("/games/{game_id}/states/{seq}", {
      params: { path: { game_id: gameId, seq } }, headers: bearer(token) })) as GameView;
    if (wanted !== seq) return; // a later step was asked meanwhile
    at.textContent = `Event ${seq} of ${last}: ${describeEvent(ev, seatNames(state))}`;
    board.replaceChildren(h("h2", { class: "visually-hidden" }, t("The table")), state.game === null ? "" : boardFor(state.type).draw(state, { names: seatNames(state), pick: null, log: events.slice(0, seq) }));
    document.body.dataset.replaySeq = String(seq);
  };
  const step = (seq: number) => void show(Math.min(Math.max(seq, 1), last));
  slider.addEventListener("input", () => step(Number(slider.value)));
  const keys = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement && e.target !== slider) return;
    const to = { ArrowLeft: wanted - 1, ArrowRight: wanted + 1, Home: 1, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    step(to);
  };
  document.addEventListener("keydown", keys);

  mount(h("h1", {}, `Replay · ${tableTitle(now, types)}`),
    h("p", { class: "links" }, h("a", { href: `#/game/${gameId}` }, "Back to the table")),
    h("div", { class: "replay-controls" },
      h("button", { type: "button", "aria-label": "first event", onclick: () => step(1) }, "First"),
      h("button", { type: "button", "aria-label": "previous event", onclick: () => step(wanted - 1) }, "◀"),
      h("label", { for: "replay-slider", class: "visually-hidden" }, "Event"), slider,
      h("button", { type: "button", "aria-label": "next event", onclick: () => step(wanted + 1) }, "▶"),
      h("button", { type: "button", "aria-label": "last event", onclick: () => step(last) }, "Last")),
    h("p", { class: "note" }, "Use ← and → to step, Home and End to jump."),
    at, board, verified);
  slider.focus();
  await show(last);
  if (now.status === "finished") {
    verified.replaceChildren(h("p", {}, "Verifying the log…"));
    const log = await api.GET("/games/{game_id}/log", {
      params: { path: { game_id: gameId } }, headers: bearer(token), parseAs: "text" });
    const result = await verifyLog(log.data ?? "");
    verified.dataset.verified = String(result.ok);
    verified.replaceChildren(h("h2", {}, result.ok ? "✔ Verified" : "✘ Not verified"),
      h("ul", {}, result.checked.map((c) => h("li", {}, `checked: ${c}`)),
        result.problems.map((p) => h("li", { class: "error" }, p))),
      h("p", { class: "note seed" }, `Seed commitment ${now.seed_hash.slice(0, 16)}…, seed ${now.seed ?? "hidden"}.`));
  } else {
    verified.replaceChildren(h("p", { class: "note" },
      "The log is verified once the game is over and its seed is revealed."));
  }
  return () => document.removeEventListener("keydown", keys);
}
