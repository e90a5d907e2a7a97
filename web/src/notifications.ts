// Web Push for a player: offered after their first move at a table (never on page load);
// once they agree, the service worker is registered and the browser's subscription is
// given to the server, which pushes "your turn" while they are away.
import { api, bearer } from "./client";
import { h } from "./dom";
import { t } from "./i18n";
import { player } from "./store";

const ASKED = "donkeypost.push-offered.v1";

/** After a move of the player's: a button offering notifications, once per browser. */
export function offerNotifications(): HTMLElement | null {
  const me = player();
  if (!me || !("serviceWorker" in navigator) || !("PushManager" in window) ||
      typeof Notification === "undefined" || Notification.permission !== "default" ||
      localStorage.getItem(ASKED)) return null;
  const offer = h("p", { class: "push-offer", role: "status" });
  const yes = h("button", { type: "button" }, t("Tell me when it is my turn"));
  const no = h("button", { type: "button" }, t("No, thanks"));
  yes.addEventListener("click", () => {
    localStorage.setItem(ASKED, "1");
    void subscribe(me.key).then((done) => {
      offer.textContent = done ? t("You will be told when it is your turn.")
        : t("Notifications are off in this browser.");
    });
  });
  no.addEventListener("click", () => { localStorage.setItem(ASKED, "1"); offer.remove(); });
  offer.append(yes, " ", no);
  return offer;
}

async function subscribe(key: string): Promise<boolean> {
  if (await Notification.requestPermission() !== "granted") return false;
  const server = await api.GET("/push/key", {});
  if (!server.data) return false;
  const registration = await navigator.serviceWorker.register("sw.js");
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true, applicationServerKey: fromBase64Url(server.data.key) });
  const json = subscription.toJSON();
  const answer = await api.POST("/players/me/push-subscriptions", {
    body: { endpoint: json.endpoint ?? "", keys: { p256dh: json.keys?.p256dh ?? "",
                                                   auth: json.keys?.auth ?? "" } },
    headers: bearer(key) });
  return answer.response.ok;
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}
