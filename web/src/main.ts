// The web table's entry: a hash router over the lobby, a table, a seat invitation and a
// replay. Everything it knows comes from the public API.
import { h, mount } from "./dom";
import { showJoin, showLobby } from "./lobby";
import { showReplay } from "./replay";
import { showTable } from "./table";

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
    else await showLobby();
  } catch (err) {
    mount(h("h1", {}, "Something went wrong"), h("p", { class: "error", role: "alert" }, (err as Error).message),
      h("p", {}, h("a", { href: "#/" }, "Back to the lobby")));
  }
  document.getElementById("main")?.focus({ preventScroll: true });
}

window.addEventListener("hashchange", () => void route());
void route();
