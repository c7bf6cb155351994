// Keeps the page usable offline after the first visit. The runtime (in its versioned folder)
// and the wheels (a content hash in each address) never change under one address: served
// from the cache first. Everything else is fetched anew when the network answers, and from
// the cache when it does not.
const RUNTIME = "__PYODIDE__";
const SHELL = "pepper-shell";
const KEEP = "pepper-files";

self.addEventListener("install", (ev) => {
  ev.waitUntil(caches.open(SHELL)
    .then((cache) => cache.addAll(["./", "app.js", "app.css", "worker.js", "manifest.json"]))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil((async () => {
    const cache = await caches.open(KEEP);
    for (const req of await cache.keys()) {
      const path = new URL(req.url).pathname;
      if (path.includes("/pyodide-") && !path.includes(`/${RUNTIME}/`)) {
        await cache.delete(req);  // an earlier build's runtime
      }
    }
    await self.clients.claim();
  })());
});

function lasting(url) {
  return url.pathname.includes(`/${RUNTIME}/`) || url.searchParams.has("v");
}

async function cacheFirst(ev) {
  const cache = await caches.open(KEEP);
  const hit = await cache.match(ev.request);
  if (hit) return hit;
  const res = await fetch(ev.request);
  if (res.ok) {
    ev.waitUntil((async () => {
      await cache.put(ev.request, res.clone());
      const url = new URL(ev.request.url);
      for (const old of await cache.keys()) {  // an older build of the same wheel
        const o = new URL(old.url);
        if (o.pathname === url.pathname && o.search !== url.search) await cache.delete(old);
      }
    })());
  }
  return res;
}

async function networkFirst(ev) {
  const cache = await caches.open(SHELL);
  try {
    const res = await fetch(ev.request);
    if (res.ok) ev.waitUntil(cache.put(ev.request, res.clone()));
    return res;
  } catch (err) {
    const hit = (await cache.match(ev.request, { ignoreSearch: true })) ||
      (ev.request.mode === "navigate" ? await cache.match("./") : undefined);
    if (hit) return hit;
    throw err;
  }
}

self.addEventListener("fetch", (ev) => {
  const url = new URL(ev.request.url);
  if (ev.request.method !== "GET" || url.origin !== self.location.origin) return;
  ev.respondWith(lasting(url) ? cacheFirst(ev) : networkFirst(ev));
});
