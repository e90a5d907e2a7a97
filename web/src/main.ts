// The web table's entry: a hash router over the lobby, a table, a seat invitation and a
// replay. Everything it knows comes from the public API.
import { h, mount } from "./dom";
import { showJoin, showLobby } from "./lobby";
import { showReplay, showReplayFile } from "./replay";
import { showTable } from "./table";
import { LANGUAGES, lang, ready, setLanguage, t, type Lang } from "./i18n";

let leave: (() => void) | void;

async function route(): Promise<void> {
  if (leave) leave();
  leave = undefined;
  const [, page, id] = location.hash.replace(/^#\/?/, "/").split("/");
  try {
    // (#/games/{id} is the link for spectators: the same table, seen without a seat here)
    if ((page === "game" || page === "games") && id) leave = await showTable(decodeURIComponent(id));
    else if (page === "join" && id) await showJoin(decodeURIComponent(id));
    else if (page === "replay" && id) leave = await showReplay(decodeURIComponent(id));
    else if (page === "replay") leave = await showReplayFile();
    else await showLobby();
  } catch (err) {
    mount(h("h1", {}, t("Something went wrong")), h("p", { class: "error", role: "alert" }, (err as Error).message),
      h("p", {}, h("a", { href: "#/" }, t("Back to the lobby"))));
  }
  document.getElementById("main")?.focus({ preventScroll: true });
}

/** The page's frame in its language, with the choice of language. */
function frame(): void {
  document.documentElement.lang = lang;
  const nav = document.querySelector("nav");
  if (!nav) return;
  nav.setAttribute("aria-label", t("main"));
  const choice = h("select", { id: "language", "aria-label": t("Language") },
    (Object.keys(LANGUAGES) as Lang[]).map((l) => h("option", { value: l, selected: l === lang, lang: l }, LANGUAGES[l]))) as HTMLSelectElement;
  choice.addEventListener("change", () => setLanguage(choice.value as Lang));
  nav.replaceChildren(h("a", { href: "#/" }, t("Lobby")), " · ", h("a", { href: "../docs" }, t("API")), " ", choice);
}

window.addEventListener("hashchange", () => void route());
void ready.then(frame);
void route();
