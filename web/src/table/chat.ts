// The table's chat: everybody reads it, seats write in it, the game's creator hides a
// message. Entries come from GET /games/{id}/messages at first, then on the game's stream.
// Texts are only ever set as text (never as markup).
import { api, bearer, failure, unwrap, type GameView, type Schemas } from "../client";
import { announce, h } from "../dom";
import { t } from "../i18n";

type Entry = Schemas["ChatEntry"];
export const MAX_TEXT = 500; // as the API bounds a message
const SHOWN = 300; // the entries kept on the page (the oldest are dropped)

/** Every entry of the chat after `after`, page by page. */
export async function readChat(gameId: string, after = 0): Promise<Entry[]> {
  const out: Entry[] = [];
  for (;;) {
    const page = unwrap(await api.GET("/games/{game_id}/messages", {
      params: { path: { game_id: gameId }, query: { after } } })).messages;
    out.push(...page);
    if (page.length < 200) return out;
    after = page[page.length - 1].n;
  }
}

export class ChatPanel {
  last = 0; // every entry up to this number is on the page (the stream resumes after it)
  private readonly seen = new Set<number>();
  private readonly list = h("ol", { id: "chat-log", class: "chat-log" });
  // (scrolled with the keyboard too; new messages are said by the page's live region)
  private readonly scroller = h("div", { class: "chat-scroll", tabindex: 0, role: "region",
                                         "aria-label": t("messages") }, this.list);
  private readonly text = h("textarea", { id: "chat-text", rows: 2, maxlength: MAX_TEXT,
                                          "aria-describedby": "chat-error" }) as HTMLTextAreaElement;
  private readonly error = h("p", { class: "error", id: "chat-error", role: "alert" });
  private readonly form = h("form", { class: "chat-form", onsubmit: ((e: Event) => void this.send(e)) as EventListener },
    h("label", { for: "chat-text" }, t("Say something")), this.text, this.error,
    h("button", { type: "submit" }, t("Send"))) as HTMLFormElement;
  readonly element = h("section", { id: "chat", class: "chat", "aria-labelledby": "chat-h" },
    h("h2", { id: "chat-h" }, t("Chat")), this.scroller);
  private view: GameView | null = null;

  /** `token` writes (a seat's); `creator(view)` is the credential that hides, if any. */
  constructor(readonly gameId: string, readonly token: string | undefined,
              readonly creator: (view: GameView) => string | undefined) {
    this.text.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey) {
        e.preventDefault();
        this.form.requestSubmit();
      }
    });
  }

  /** Seats write; the others read. */
  update(view: GameView): void {
    this.view = view;
    if (view.you !== null && view.status !== "cancelled") {
      if (!this.form.isConnected) this.element.append(this.form);
    } else this.form.remove();
  }

  /** Entries read or streamed, in order (an entry already shown is skipped). */
  take(entries: Entry[], quietly = false): void {
    for (const entry of entries) {
      if (this.seen.has(entry.n)) continue;
      this.seen.add(entry.n);
      while (this.seen.has(this.last + 1)) this.last += 1;
      if (entry.type === "message_hidden") {
        this.hidden(entry.message ?? 0);
        continue;
      }
      const later = [...this.list.children].find((li) => Number((li as HTMLElement).dataset.n) > entry.n);
      this.list.insertBefore(this.item(entry), later ?? null);
      if (!quietly && entry.text && entry.seat !== this.view?.you) announce(t("{name} says: {text}", { name: entry.name ?? t("Someone"), text: entry.text }));
    }
    while (this.list.children.length > SHOWN) this.list.firstElementChild?.remove();
    this.scroller.scrollTop = this.scroller.scrollHeight;
    document.body.dataset.chatLast = String(this.last);
  }

  private hidden(n: number): void {
    const li = this.list.querySelector<HTMLElement>(`[data-n="${n}"]`);
    if (!li) return;
    li.classList.add("hidden-message");
    li.querySelector(".text")?.replaceWith(h("em", {}, t("(hidden by the table's creator)")));
    li.querySelector("[data-hide]")?.remove();
  }

  private item(entry: Entry): HTMLElement {
    const name = entry.name ?? t("Someone");
    const who = entry.seat !== undefined && entry.seat !== null ? t("{name} (seat {n})", { name, n: entry.seat + 1 }) : name;
    const hide = entry.hidden || !this.view || !this.creator(this.view) ? ""
      : h("button", { type: "button", class: "ghost small", "data-hide": entry.n,
                      "aria-label": t("hide the message of {who}", { who }), onclick: () => void this.hide(entry.n) }, t("Hide"));
    return h("li", { "data-n": entry.n, class: entry.hidden ? "hidden-message" : "" },
      h("span", { class: "who" }, who), ": ",
      entry.hidden ? h("em", {}, t("(hidden by the table's creator)")) : h("span", { class: "text" }, entry.text ?? ""),
      " ", hide);
  }

  private async send(ev: Event): Promise<void> {
    ev.preventDefault();
    this.error.textContent = "";
    const text = this.text.value;
    const answer = await api.POST("/games/{game_id}/messages", {
      params: { path: { game_id: this.gameId } }, headers: bearer(this.token), body: { text } })
      .catch(() => null);
    if (!answer) {
      this.error.textContent = t("The server could not be reached: try again in a moment.");
    } else if (answer.error) {
      this.error.textContent = failure(answer.error, answer.response).message;
    } else {
      this.text.value = "";
      this.take([answer.data], true);
    }
  }

  private async hide(n: number): Promise<void> {
    const answer = await api.POST("/games/{game_id}/messages/{n}/hide", {
      params: { path: { game_id: this.gameId, n } },
      headers: bearer(this.view ? this.creator(this.view) : undefined) }).catch(() => null);
    if (answer?.error) this.error.textContent = failure(answer.error, answer.response).message;
    else if (answer) this.hidden(n);
  }
}
