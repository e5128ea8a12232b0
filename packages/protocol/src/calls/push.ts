import { z } from 'zod';
import { TRANSLATION_LANGUAGE_CODES } from '../languages.js';

/** A Web Push endpoint: an https URL of the browser's push service (RFC 8030). */
export const PUSH_ENDPOINT_MAX = 2048;
/** Devices (browsers) one seat may have subscribed at once. */
export const PUSH_SUBSCRIPTIONS_PER_SEAT_MAX = 20;

const base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'base64url');
const endpoint = z.string().url().max(PUSH_ENDPOINT_MAX);

/** The VAPID public key the browser's pushManager.subscribe takes as applicationServerKey. */
export const pushKeyRequest = z.object({});
export const pushKeyResponse = z.object({ public_key: z.string() });

/**
 * The browser's PushSubscription (toJSON): its endpoint and the keys of RFC 8291 (the
 * client's P-256 public key, 65 bytes, and its 16-byte auth secret, both base64url).
 * `translate_to`: the language this device's console auto-translates customers' messages
 * into (null: auto-translation off), so a notification reads as the console would show it.
 */
export const pushSubscribeRequest = z.object({
  endpoint,
  keys: z.object({
    p256dh: base64url.length(87),
    auth: base64url.length(22),
  }),
  translate_to: z.enum(TRANSLATION_LANGUAGE_CODES).nullable().default(null),
});
export const pushSubscribeResponse = z.object({ subscribed: z.literal(true) });

/** This device stops being notified (the console's switch off). */
export const pushUnsubscribeRequest = z.object({ endpoint });
export const pushUnsubscribeResponse = z.object({ removed: z.number().int() });

/** A test notification to this device (Settings' test button). */
export const pushTestRequest = z.object({ endpoint });
export const pushTestResponse = z.object({ sent: z.literal(true) });

/** What a notification carries to the service worker (encrypted, RFC 8291). */
export const pushPayload = z.object({
  /** The customer's name as the console shows it (remark, name, number); or the test's title. */
  title: z.string(),
  body: z.string(),
  /** The chat's link, /home/chat?chat=<session_id>; the console's home for the test. */
  url: z.string(),
  /** Notifications of one chat replace each other. */
  tag: z.string(),
  session_id: z.number().int().nullable(),
});
export type PushPayload = z.infer<typeof pushPayload>;
