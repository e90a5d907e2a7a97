// A replay: a game stepped event by event with a slider, the arrow keys or its log, and
// its log verified in the browser (the hash chain, then the seed and every private part
// against their commitments once the seed is revealed). Two sources: a game on this
// server (`#/replay/{id}`: the board at each step through GET /games/{id}/states/{seq}),
// or an exported log chosen or dropped as a file (`#/replay`: nothing is asked of the
// server; each step shows the event itself).
import { api, bearer, unwrap, type GameEvent, type GameView } from "./client";
import { eventText, type Names } from "./words";
import { h, mount } from "./dom";
import { boardFor } from "./games";
import { genericValue } from "./games/generic";
import { ready, t } from "./i18n";
import { credentialFor } from "./store";
import { readLog } from "./table/log";
import { botLevel, describeEvent, seatNames } from "./table/render";
import { gameTypes, tableTitle } from "./types";
import { analysisPanel } from "./analysis";
import { verifyLog, type Verification } from "./verify";

interface Replayable {
  title: string;
  events: GameEvent[];
  /** What the table looked like after event `seq` (may ask the server). */
  drawAt(seq: number): Promise<Node>;
  /** The sentence of an event at that step. */
  sentence(ev: GameEvent): string;
  /** The log verified, or why it cannot be yet. */
  verify(): Promise<Verification | string>;
  /** The log to save, if it is not a file already. */
  save?: () => Promise<string>;
  /** A finished game of the server: its analysis may be asked for. */
  analysis?: { names: Names };
}

/** A game of this server, as this browser's seat (or a spectator) may see it. */
export async function showReplay(gameId: string): Promise<() => void> {
  const token = credentialFor(gameId);
  const [now, events, types] = await Promise.all([api.GET("/games/{game_id}", {
    params: { path: { game_id: gameId }, query: { words: true }, header: {} }, headers: bearer(token) }).then(unwrap),
    readLog(gameId, token), gameTypes(), ready]);
  const views = new Map<number, GameView>();
  const exported = async () => (await api.GET("/games/{game_id}/log", {
    params: { path: { game_id: gameId } }, headers: bearer(token), parseAs: "text" })).data ?? "";
  return replay({
    title: tableTitle(now, types),
    events,
    async drawAt(seq) {
      const state = views.get(seq) ?? unwrap(await api.GET("/games/{game_id}/states/{seq}", {
        params: { path: { game_id: gameId, seq }, query: { words: true } }, headers: bearer(token) })) as GameView;
      views.set(seq, state);
      return state.game === null ? h("p", {}, t("The cards are dealt when every seat is taken."))
        : boardFor(state.type).draw(state, { names: seatNames(state), pick: null, log: events.slice(0, seq) });
    },
    sentence: (ev) => describeEvent(ev, seatNames(views.get(ev.seq) ?? now), boardFor(now.type)),
    verify: async () => now.status === "finished" ? verifyLog(await exported())
      : t("The log is verified once the game is over and its seed is revealed."),
    save: exported,
    analysis: now.status === "finished" ? { names: seatNames(now) } : undefined,
  }, gameId);
}

/** The page to open an exported log: a file chosen or dropped. */
export async function showReplayFile(): Promise<() => void> {
  await ready;
  const error = h("p", { class: "error", role: "alert", id: "file-error" });
  const input = h("input", { id: "log-file", type: "file", accept: ".ndjson,.jsonl,.json,.txt,application/x-ndjson" }) as HTMLInputElement;
  let leave: () => void = () => undefined;
  const open = async (file: File | undefined) => {
    if (!file) return;
    error.textContent = "";
    try {
      const text = await file.text();
      leave();
      leave = fromFile(text, file.name, picker);
    } catch (err) {
      error.textContent = t("This file is not an exported game log: {why}", { why: (err as Error).message });
    }
  };
  input.addEventListener("change", () => void open(input.files?.[0]));
  const zone = h("div", { id: "drop-zone", class: "drop-zone" },
    h("p", {}, t("Drop an exported log (NDJSON) here, or choose it:")),
    h("label", { for: "log-file" }, t("A game's log")), input, error);
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    void open((e as DragEvent).dataTransfer?.files?.[0]);
  });
  const picker = h("section", { class: "file-picker", "aria-labelledby": "file-h" },
    h("h1", { id: "file-h" }, t("Replay a game from its log")),
    h("p", {}, t("A game's log (GET /games/{id}/log, or “Save the log” on a replay) is replayed and verified here, in this browser: nothing is sent to the server.")),
    zone);
  mount(picker);
  return () => leave();
}

/** The events of an exported log, replayed with nothing but the file. */
function fromFile(text: string, fileName: string, picker: HTMLElement): () => void {
  const events = text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as GameEvent);
  if (!events.length || events[0].type !== "game_created") throw new Error(t("its first event is not the game's creation"));
  const created = events[0].data as { type?: string; seats?: { kind: string; level?: string }[] };
  const names = fileNames(events, created.seats ?? []);
  return replay({
    title: `${created.type ?? "?"} · ${fileName}`,
    events,
    drawAt: async (seq) => eventDetail(events[seq - 1], names),
    sentence: (ev) => eventText(ev, names, boardFor(created.type ?? "")),
    verify: () => verifyLog(text),
  }, null, picker);
}

/** The seats' names as the log has them (who sat down where; the bots by their level). */
function fileNames(events: GameEvent[], seats: { kind: string; level?: string }[]): Names {
  const named = new Map<number, string>();
  for (const ev of events) {
    if (ev.type === "player_joined" && ev.data.name) named.set(ev.data.seat, ev.data.name);
  }
  return (seat) => {
    if (seat === null || seat === undefined) return t("nobody");
    return named.get(seat) ?? (seats[seat]?.kind === "bot"
      ? t("Bot {n} ({level})", { n: seat + 1, level: botLevel(seats[seat].level) }) : t("Seat {n}", { n: seat + 1 }));
  };
}

/** One event as the file has it: its public part and, once revealed, each seat's own. */
function eventDetail(ev: GameEvent, names: Names): Node {
  const parts = Object.entries((ev as { private?: Record<string, unknown> }).private ?? {});
  return h("div", { class: "board event-detail" },
    h("h3", {}, t("Event {n}: {type}", { n: ev.seq, type: ev.type.replace(/_/g, " ") })),
    genericValue(ev.data, 0),
    parts.map(([seat, part]) => h("div", {}, h("h4", {}, t("Seen by {name} only", { name: names(Number(seat)) })),
      genericValue(part, 0))));
}

/** The replay's page: `before` (the file's drop zone) above it. */
function replay(r: Replayable, gameId: string | null, before: HTMLElement | null = null): () => void {
  const events = r.events;
  const last = events.length;
  const slider = h("input", { id: "replay-slider", type: "range", min: 1, max: last, value: last, step: 1,
                              "aria-describedby": "replay-at" }) as HTMLInputElement;
  const at = h("p", { id: "replay-at", "aria-live": "polite" });
  const board = h("div", { id: "replay-board" });
  const verified = h("section", { id: "verified", class: "verified", "aria-label": t("verification") });
  const items = events.map((ev) => h("li", { "data-seq": ev.seq },
    h("button", { type: "button", class: "step", onclick: () => step(ev.seq) },
      h("span", { class: "seq" }, ev.seq), " ", r.sentence(ev))));
  const logList = h("ol", { class: "log", id: "log" }, items);
  const logBox = h("section", { class: "log-box", "aria-labelledby": "log-h", tabindex: 0 },
    h("h2", { id: "log-h" }, t("Moves")), logList);
  let wanted = last;

  const show = async (seq: number) => {
    wanted = seq;
    slider.value = String(seq);
    const drawn = await r.drawAt(seq);
    if (wanted !== seq) return; // a later step was asked meanwhile
    at.textContent = t("Event {n} of {last}: {what}", { n: seq, last, what: r.sentence(events[seq - 1]) });
    board.replaceChildren(h("h2", { class: "visually-hidden" }, t("The table")), drawn);
    for (const li of items) li.removeAttribute("aria-current");
    items[seq - 1].setAttribute("aria-current", "step");
    items[seq - 1].scrollIntoView?.({ block: "nearest" });
    document.body.dataset.replaySeq = String(seq);
  };
  const step = (seq: number) => void show(Math.min(Math.max(seq, 1), last));
  slider.addEventListener("input", () => step(Number(slider.value)));
  const keys = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement && e.target !== slider) return;
    if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement) return;
    const to = { ArrowLeft: wanted - 1, ArrowRight: wanted + 1, Home: 1, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    step(to);
  };
  document.addEventListener("keydown", keys);

  const save = r.save;
  const analysis = r.analysis && gameId ? analysisPanel(gameId, r.analysis.names, step, (seq, text) => {
    const li = items[seq - 1];
    if (li && !li.querySelector(".moment")) {
      li.querySelector("button")?.append(" ", h("span", { class: "moment", title: text }, "?!"),
        h("span", { class: "visually-hidden" }, ` ${text}`));
    }
  }) : "";
  mount(before ?? "", h(before ? "h2" : "h1", {}, t("Replay · {title}", { title: r.title })),
    h("p", { class: "links" }, gameId ? h("a", { href: `#/game/${gameId}` }, t("Back to the table")) : "", " ",
      before ? "" : h("a", { href: "#/replay" }, t("Replay a log file")), " ",
      save ? h("button", { type: "button", id: "save-log", onclick: () => void save().then((text) => download(text, `${gameId}.ndjson`)) },
        t("Save the log")) : ""),
    h("div", { class: "replay-controls" },
      h("button", { type: "button", "aria-label": t("first event"), onclick: () => step(1) }, t("First")),
      h("button", { type: "button", "aria-label": t("previous event"), onclick: () => step(wanted - 1) }, "◀"),
      h("label", { for: "replay-slider", class: "visually-hidden" }, t("Event")), slider,
      h("button", { type: "button", "aria-label": t("next event"), onclick: () => step(wanted + 1) }, "▶"),
      h("button", { type: "button", "aria-label": t("last event"), onclick: () => step(last) }, t("Last"))),
    h("p", { class: "note" }, t("Use ← and → to step, Home and End to jump.")),
    at, board, logBox, verified, analysis);
  slider.focus();
  void show(last);
  verified.replaceChildren(h("p", {}, t("Verifying the log…")));
  void r.verify().then((result) => {
    if (typeof result === "string") {
      verified.replaceChildren(h("p", { class: "note" }, result));
      return;
    }
    verified.dataset.verified = String(result.ok);
    verified.replaceChildren(h("h2", {}, result.ok ? `✔ ${t("Verified")}` : `✘ ${t("Not verified")}`),
      h("ul", {}, result.checked.map((c) => h("li", {}, t("checked: {what}", { what: c }))),
        result.problems.map((p) => h("li", { class: "error" }, p))),
      result.seed ? h("p", { class: "note seed" }, t("Seed {seed}, committed as {hash}…", { seed: result.seed, hash: result.seedHash.slice(0, 16) })) : "");
  });
  return () => document.removeEventListener("keydown", keys);
}

function download(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
  const a = h("a", { href: url, download: name }) as HTMLAnchorElement;
  document.body.append(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
