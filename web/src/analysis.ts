// A finished game's analysis (GET /games/{id}/analysis, made once by a worker on demand):
// the costliest decisions of each seat, each with the better move and what it cost, marked
// on the replay's log at the step where the seat decided. Asked only when the person
// wants it (it costs a worker a minute or two), then polled with its progress.
import { api, type Action, type Schemas } from "./client";
import { boardFor } from "./games";
import { actionText, type Names } from "./words";
import { h } from "./dom";
import { t } from "./i18n";

type Analysis = Schemas["Analysis"];

/** The analysis panel; `step(seq)` shows a moment, `mark(seq, text)` marks the log there. */
export function analysisPanel(gameId: string, names: Names, step: (seq: number) => void,
                              mark: (seq: number, text: string) => void): HTMLElement {
  const status = h("p", { id: "analysis-status", "aria-live": "polite" });
  const list = h("ol", { class: "moments", id: "moments" });
  const ask = async () => {
    button.remove();
    const answer = await api.GET("/games/{game_id}/analysis", { params: { path: { game_id: gameId } } })
      .catch(() => null);
    if (!answer || answer.error) {
      status.textContent = t("The analysis could not be read: try again later.");
      return;
    }
    if (answer.response.status === 202) {
      const pending = answer.data as unknown as Schemas["AnalysisPending"];
      status.textContent = pending.progress
        ? t("Weighing the decisions: {weighed} of {of}…", { weighed: pending.progress.weighed, of: pending.progress.of })
        : t("The analysis is queued…");
      const wait = Number(answer.response.headers.get("Retry-After") ?? 5);
      // (asked again while the replay is still shown)
      window.setTimeout(() => { if (panel.isConnected) void ask(); }, Math.max(1, Math.min(wait, 30)) * 1000);
      return;
    }
    show(answer.data as Analysis);
  };
  const show = (a: Analysis) => {
    status.textContent = a.moments.length
      ? t("The costliest decisions, in {unit}:", { unit: a.unit })
      : t("No decision cost anything.");
    list.replaceChildren(...a.moments.map((m) => {
      const text = t("{name} played “{played}”; “{better}” was better by about {cost}.", {
        name: names(m.seat), played: actionText(m.played as unknown as Action, boardFor(a.type)),
        better: actionText(m.better as unknown as Action, boardFor(a.type)), cost: m.cost.toFixed(1) });
      mark(m.seq + 1, text);
      return h("li", {}, h("button", { type: "button", class: "step", onclick: () => step(m.seq) },
        t("Event {n}", { n: m.seq }), ": ", text));
    }));
    document.body.dataset.analysis = "shown";
  };
  const button = h("button", { type: "button", id: "analyse", onclick: () => void ask() },
    t("Analyse the decisions"));
  const panel = h("section", { class: "analysis", "aria-labelledby": "analysis-h" },
    h("h2", { id: "analysis-h" }, t("Analysis")), button, status, list);
  return panel;
}
