import type { TranslationLanguageCode } from '@parley/protocol';
import { callApi } from './api-client';
import { readItem } from './storage';

/**
 * This browser as a device the server notifies (Web Push): the service worker
 * (public/sw.js, written by scripts/service-worker.mjs at build), its push subscription, and
 * the server's record of it (/v1/seat/push/...). Nothing here runs on /login or before the
 * console's first screen: the console registers the worker a few seconds after it is up.
 */
export const SW_URL = '/sw.js';

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    typeof Notification !== 'undefined'
  );
}

/** The language this console auto-translates customers' messages into (null: it does not). */
function translateTo(): TranslationLanguageCode | null {
  const t = readItem('translate');
  return t?.isEnable && t.mode === 'auto_all'
    ? (t.targetLanguage as TranslationLanguageCode)
    : null;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register(SW_URL, { scope: '/' });
  return navigator.serviceWorker.ready;
}

/** This browser's push subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const reg = await navigator.serviceWorker.getRegistration('/');
  return (await reg?.pushManager.getSubscription()) ?? null;
}

function subscriptionBody(sub: PushSubscription) {
  const json = sub.toJSON();
  return {
    endpoint: sub.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    translate_to: translateTo(),
  };
}

/**
 * The console is up: the app shell's worker is registered (or updated), and a subscription this
 * browser holds is told to the server again (this login, the current translation language).
 */
export async function startServiceWorker(): Promise<void> {
  if (!pushSupported()) return;
  const reg = await registration();
  const sub = await reg.pushManager.getSubscription();
  if (sub && Notification.permission === 'granted') {
    await callApi('/v1/seat/push/subscribe', subscriptionBody(sub), { notify: false }).catch(
      () => undefined,
    );
  }
}

export type EnableResult = 'on' | 'denied' | 'unsupported';

/** The switch turned on: asks permission, subscribes at the browser's push service and here. */
export async function enablePush(): Promise<EnableResult> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const reg = await registration();
  const { public_key } = await callApi('/v1/seat/push/key', {});
  const sub =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: public_key }));
  await callApi('/v1/seat/push/subscribe', subscriptionBody(sub));
  return 'on';
}

/** The switch turned off: the server forgets this device, and the browser its subscription. */
export async function disablePush(): Promise<void> {
  const sub = await currentSubscription();
  if (!sub) return;
  await callApi('/v1/seat/push/unsubscribe', { endpoint: sub.endpoint });
  await sub.unsubscribe();
}

export async function testPush(): Promise<boolean> {
  const sub = await currentSubscription();
  if (!sub) return false;
  await callApi('/v1/seat/push/test', { endpoint: sub.endpoint });
  return true;
}

/** Logout: the server removed this login's devices; the browser drops its subscription too. */
export function forgetPushSubscription(): void {
  void currentSubscription()
    .then((sub) => sub?.unsubscribe())
    .catch(() => undefined);
}
