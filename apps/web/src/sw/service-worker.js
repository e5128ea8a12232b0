/// <reference lib="webworker" />
// The app shell's service worker (Web Push and an offline start). Plain JavaScript, written
// into the build as /sw.js by scripts/service-worker.mjs with this build's version and files.
const VERSION = '__VERSION__';
const SHELL = ['__SHELL__'];
const PREFIX = 'parley-shell-';
const CACHE = PREFIX + VERSION;

/** @type {ServiceWorkerGlobalScope} */
const sw = /** @type {any} */ (self);

sw.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)));
});

// Once no page of the old build is left (no skipWaiting: an open page keeps its worker), its
// files go; pages opened before the first worker are taken over (a notification's click can
// move them to a chat).
sw.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k)),
        ),
      )
      .then(() => sw.clients.claim()),
  );
});

sw.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return;
  if (request.mode === 'navigate' && !url.pathname.startsWith('/v1/')) {
    // The newest index.html while the server answers (a new build is picked up at this load);
    // this build's own when it does not.
    event.respondWith(
      fetch(request).catch(() =>
        caches
          .open(CACHE)
          .then((c) => c.match('/index.html'))
          .then((r) => r ?? Response.error()),
      ),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    // Hashed names never change content: a cached copy is the file, whichever build's it is.
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ??
          fetch(request).then((res) => {
            if (res.ok) {
              const copy = res.clone();
              void caches.open(CACHE).then((c) => c.put(request, copy));
            }
            return res;
          }),
      ),
    );
  }
});

/** The chat a visible, focused console shows (its ?chat=), or null. */
async function chatInFront() {
  const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of windows) {
    if (client.visibilityState === 'visible' && client.focused) {
      return new URL(client.url).searchParams.get('chat');
    }
  }
  return null;
}

sw.addEventListener('push', (event) => {
  /** @type {{ title: string, body: string, url: string, tag: string, session_id: number | null }} */
  let data;
  try {
    data = event.data.json();
  } catch {
    return;
  }
  event.waitUntil(
    chatInFront().then((front) => {
      // The operator is looking at this chat: nothing to tell.
      if (data.session_id !== null && front === String(data.session_id)) return undefined;
      return sw.registration.showNotification(data.title, {
        body: data.body,
        tag: data.tag,
        icon: '/icons/icon-192.png',
        badge: '/icons/icon-192.png',
        data: { url: data.url },
      });
    }),
  );
});

sw.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? '/home/chat', sw.location.origin).href;
  event.waitUntil(
    sw.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const open = windows.find((c) => new URL(c.url).origin === sw.location.origin);
      if (open && 'navigate' in open) {
        // The console opens the chat of the URL it is sent to (features/sessions/use-chat-url).
        const moved = await open.navigate(target).catch(() => null);
        if (moved) return moved.focus();
      }
      return sw.clients.openWindow(target);
    }),
  );
});
