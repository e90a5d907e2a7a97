// The web table's service worker: shows the server's Web Push notifications (a newer one of
// the same game replaces the older one) and opens the table when one is clicked.
self.addEventListener("push", (event) => {
  const note = event.data ? event.data.json() : {};
  event.waitUntil(self.registration.showNotification(note.title || "donkeypost", {
    body: note.game_type || "", tag: note.game || "donkeypost", data: { url: note.url },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || self.registration.scope;
  event.waitUntil(self.clients.matchAll({ type: "window" }).then((open) => {
    for (const client of open) {
      if (client.url === url && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(url);
  }));
});
