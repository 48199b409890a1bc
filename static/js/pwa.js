// Every page registers Salon's service worker (served from the site's root: app/web/pwa.py),
// which makes the club an installable web app and shows an offline page when the club's
// server cannot be reached (docs/web-app.md). Where workers are unavailable (an insecure
// address, a private window that refuses them) the pages simply work without one.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // No worker: no offline page and no install, nothing else changes.
  });
}
