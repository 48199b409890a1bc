// Salon's service worker, served at /sw.js so that it looks after the whole club
// (app/web/pwa.py, docs/web-app.md). It keeps the static shell for when the club's server
// cannot be reached, and nothing else: never the API, the socket or a page, which carry
// members' private data and live play.

/** This build, written in by the server.
 *  @typedef {object} Build
 *  @property {string} cache the cache's name, after the build's version
 *  @property {string[]} shell the URLs stored on install
 *  @property {string} offline the offline page's path
 *  @property {string} words the path prefix of the languages' words files
 *  @property {string[]} never the path prefixes never stored (the API, the socket)
 *  @type {Build} */
const BUILD = {{ build|tojson }};
const CACHE_PREFIX = "salon-shell-";

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(BUILD.cache);
    await cache.addAll(BUILD.shell);
    await keepOfflineWords(cache);
    // A release replaces the worker at once: pages are never stored, so nothing old lingers.
    await self.skipWaiting();
  })());
});

/** The words file the offline page's script reads (named in the page; none in English): stored
 *  with the page, so that the script speaks the page's language with the server away. Not
 *  stored, the script speaks English: the worker is installed all the same.
 *  @param {Cache} cache */
async function keepOfflineWords(cache) {
  const page = await cache.match(BUILD.offline);
  const named = page && /<meta name="salon-words" content="([^"]+)">/.exec(await page.text());
  if (named) await cache.add(named[1].replaceAll("&amp;", "&")).catch(() => undefined);
}

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(CACHE_PREFIX) && name !== BUILD.cache) await caches.delete(name);
    }
    // The page that installed the worker is looked after from now, not from its next load.
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (BUILD.never.some((prefix) => url.pathname.startsWith(prefix))) return;
  if (request.mode === "navigate") {
    event.respondWith(pageOrOffline(request));
  } else if (
    url.pathname.startsWith("/static/")
    || url.pathname.startsWith(BUILD.words)
    || BUILD.shell.includes(url.pathname)
  ) {
    event.respondWith(shellFile(request, url));
  }
});

/** A page, always from the server (an error page too); the offline page only when the
 *  server cannot be reached at all.
 *  @param {Request} request */
async function pageOrOffline(request) {
  try {
    return await fetch(request);
  } catch {
    return (await caches.match(BUILD.offline)) ?? Response.error();
  }
}

/** A static file. One with its version in the URL (`?v=`) names one content forever: kept,
 *  it is answered from the cache. Any other is asked of the server first (a module a script
 *  imports has no version), and answered from the cache only when the server is away.
 *  @param {Request} request
 *  @param {URL} url */
async function shellFile(request, url) {
  const cache = await caches.open(BUILD.cache);
  if (url.searchParams.has("v")) {
    const kept = await cache.match(request);
    if (kept) return kept;
  }
  try {
    const response = await fetch(request);
    if (response.ok && url.pathname.startsWith("/static/")) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreSearch: true });
    if (kept) return kept;
    throw error;
  }
}

// A turn notification, clicked: the table's page comes to the front (opened again if the
// player has closed it since).
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? "/", self.location.origin).href;
  event.waitUntil((async () => {
    const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = pages.find((page) => page.url === target);
    if (open) return open.focus();
    return self.clients.openWindow(target);
  })());
});
