import { createHash, createPublicKey } from 'node:crypto';
import webpush from 'web-push';
import {
  ERROR_CODES,
  PUSH_SUBSCRIPTIONS_PER_SEAT_MAX,
  type CallRequest,
  type CallResponse,
  type ChatMessage,
  type EventPayload,
  type PushPayload,
  type SessionItem,
  type TranslationLanguageCode,
} from '@parley/protocol';
import type { Db } from '../../db/database.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { settingsRepository } from '../settings/settings.repository.js';
import type { AuthSeat, Revocation } from '../auth/auth.service.js';
import type { LoggedEvent } from '../events/events.repository.js';
import type { PushEndpoints } from './push-endpoint.js';
import { mutesRepository } from '../mutes/mutes.repository.js';
import { pushRepository } from './push.repository.js';

const VAPID_KEY = 'push.vapid';
/** What a notification shows of a message at most (the payload stays far below 4 KB). */
const BODY_MAX = 300;
/** How long a translation may hold a notification back before it goes untranslated. */
const TRANSLATE_BUDGET_MS = 1_000;
/** A notification older than this is dropped by the push service (seconds). */
const TTL_SECONDS = 3_600;
const SEND_TIMEOUT_MS = 5_000;
/** Media without a caption: a sign every language reads. */
const MEDIA_SIGN: Record<ChatMessage['type'], string> = {
  text: '',
  image: '📷',
  audio: '🎤',
  video: '🎬',
  file: '📎',
};
/** A chat handed over without a note or a customer's message: a sign every language reads. */
const HANDED_SIGN = '↪';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The VAPID keys: made once at the first start and kept in the database for every instance. */
export async function resolveVapidKeys(db: Db): Promise<VapidKeys> {
  const stored = await settingsRepository.get(db, VAPID_KEY);
  if (stored) return JSON.parse(stored.value) as VapidKeys;
  await settingsRepository.insertIfAbsent(
    db,
    VAPID_KEY,
    JSON.stringify(webpush.generateVAPIDKeys()),
    Date.now(),
  );
  return JSON.parse((await settingsRepository.get(db, VAPID_KEY))!.value) as VapidKeys;
}

/** Translates one customer's text for a notification; null when it cannot (then untranslated). */
export type NotificationTranslator = (
  seatId: number,
  session: NoticeChat,
  text: string,
  target: TranslationLanguageCode,
) => Promise<string | null>;

/** What a notification's translation needs of its chat. */
type NoticeChat = Pick<SessionItem, 'session_id' | 'customer_language'>;

/** One chat's notification before it is translated per device. */
interface Notice {
  chat: NoticeChat;
  title: string;
  /** The customer's words (translated per device); '' for none. */
  text: string;
  /** Shown when there is no text: a media sign, a hand-over note, the hand-over sign. */
  sign: string;
  /** The message the text is of (a translation per message and language); '' for none. */
  key: string;
}

interface PushLog {
  warn(obj: object, msg: string): void;
}

const hashOf = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex');

/** A P-256 public key in uncompressed form (what RFC 8291's p256dh is), on the curve. */
function isP256Point(p256dh: string): boolean {
  const raw = Buffer.from(p256dh, 'base64url');
  if (raw.length !== 65 || raw[0] !== 0x04) return false;
  try {
    createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: raw.subarray(1, 33).toString('base64url'),
        y: raw.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * Web Push (RFC 8030, encrypted per RFC 8291, signed per RFC 8292 VAPID) through the `web-push`
 * library: the seats' devices, and a notification of each customer's message once it has
 * committed, sent off the request that wrote it.
 */
export class PushService {
  /** Sends still running (tests and shutdown wait for them). */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly keys: VapidKeys,
    private readonly endpoints: PushEndpoints,
    private readonly subject: string,
    private readonly translate: NotificationTranslator | null,
    private readonly log: PushLog = { warn: () => undefined },
  ) {}

  publicKey(): CallResponse<'/v1/seat/push/key'> {
    return { public_key: this.keys.publicKey };
  }

  async subscribe(
    seat: AuthSeat,
    input: CallRequest<'/v1/seat/push/subscribe'>,
  ): Promise<CallResponse<'/v1/seat/push/subscribe'>> {
    const host = this.endpoints.checkUrl(input.endpoint);
    // A made-up key (not a point of P-256) or secret: the browser never made it.
    if (
      !isP256Point(input.keys.p256dh) ||
      Buffer.from(input.keys.auth, 'base64url').length !== 16
    ) {
      throw new AppError(ERROR_CODES.PARAMETER_ERROR, undefined, { field: 'keys' });
    }
    await this.endpoints.checkResolved(host);
    const endpointHash = hashOf(input.endpoint);
    const held = await pushRepository.heldBy(this.db, endpointHash);
    // Another seat's device (a replayed subscription): never taken over.
    if (held && held.seat_id !== seat.seatId) throw new AppError(ERROR_CODES.DATA_EXISTS);
    if (
      !held &&
      (await pushRepository.countForSeat(this.db, seat.seatId)) >= PUSH_SUBSCRIPTIONS_PER_SEAT_MAX
    ) {
      throw new AppError(ERROR_CODES.OPERATION_LIMIT);
    }
    const stored = await pushRepository.upsert(this.db, {
      endpoint_hash: endpointHash,
      seat_id: seat.seatId,
      token_hash: seat.tokenHash,
      endpoint: input.endpoint,
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      translate_to: input.translate_to,
      created_at: Date.now(),
    });
    // Taken by another seat between the read and the write.
    if (!stored) throw new AppError(ERROR_CODES.DATA_EXISTS);
    return { subscribed: true };
  }

  async unsubscribe(
    seatId: number,
    input: CallRequest<'/v1/seat/push/unsubscribe'>,
  ): Promise<CallResponse<'/v1/seat/push/unsubscribe'>> {
    return { removed: await pushRepository.deleteOne(this.db, seatId, hashOf(input.endpoint)) };
  }

  /** Settings' test button: a notification to this device now, answered once it is accepted. */
  async test(
    seatId: number,
    input: CallRequest<'/v1/seat/push/test'>,
  ): Promise<CallResponse<'/v1/seat/push/test'>> {
    const [sub] = await pushRepository.deliverable(
      this.db,
      seatId,
      Date.now(),
      hashOf(input.endpoint),
    );
    if (!sub) throw notFound();
    const sent = await this.send(sub, {
      title: 'Parley',
      body: '✓',
      url: '/home/chat',
      tag: 'parley-test',
      session_id: null,
    });
    if (sent === 'gone') throw notFound();
    if (sent !== 'sent') throw new AppError(ERROR_CODES.SERVER_BUSY, undefined, { reason: sent });
    return { sent: true };
  }

  /** Logins ended: their devices are no longer notified (the send's join refuses them anyway). */
  async revoked(revocation: Revocation): Promise<void> {
    if (revocation.tokenHash) await pushRepository.deleteForToken(this.db, revocation.tokenHash);
    else await pushRepository.deleteForSeat(this.db, revocation.seatId);
  }

  /**
   * A seat's events committed (the event bus's watcher, on the instance that wrote them): each
   * customer's message is notified, the latest per chat, and each chat handed to the seat (a
   * member's hand-over or routing: team.assigned), after the current turn of the event loop
   * (the request that wrote it is answered first).
   */
  committed(seatId: number, events: readonly LoggedEvent[] | undefined): void {
    if (!events) return;
    const latest = new Map<number, EventPayload<'message.created'>>();
    const handed = new Map<number, EventPayload<'team.assigned'>>();
    for (const e of events) {
      if (e.type === 'team.assigned') {
        const data = JSON.parse(e.data) as EventPayload<'team.assigned'>;
        // Never to the member who handed it (the event is the receiver's; kept as a guard).
        if (data.from?.seat_id !== seatId) handed.set(data.session_id, data);
        continue;
      }
      if (e.type !== 'message.created') continue;
      const data = JSON.parse(e.data) as EventPayload<'message.created'>;
      // A blocked customer's message is not notified (the channels keep none today).
      if (data.message.direction !== 'in' || data.message.deleted || data.session.blocked) continue;
      latest.set(data.message.session_id, data);
    }
    if (latest.size === 0 && handed.size === 0) return;
    const job = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.notify(seatId, [...latest.values()], [...handed.values()]))
      .catch((err: unknown) => this.log.warn({ err, seatId }, 'push notification'));
    this.inFlight.add(job);
    void job.finally(() => this.inFlight.delete(job));
  }

  /** Resolves once every notification begun so far has been sent or given up. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async notify(
    seatId: number,
    messages: EventPayload<'message.created'>[],
    handed: EventPayload<'team.assigned'>[],
  ): Promise<void> {
    const subs = await pushRepository.deliverable(this.db, seatId, Date.now());
    if (subs.length === 0) return;
    const notices = new Map<number, Notice>();
    for (const { message, session } of messages) {
      notices.set(session.session_id, {
        chat: session,
        title: session.remark || session.customer_name || session.receiver_phone,
        text: message.content.slice(0, BODY_MAX * 4),
        sign: MEDIA_SIGN[message.type],
        key: `${message.msg_id}`,
      });
    }
    const chats = await pushRepository.handedChats(
      this.db,
      seatId,
      handed.map((h) => h.session_id),
    );
    for (const { session_id, note } of handed) {
      // Moved on meanwhile, or blocked: not this seat's to be told of.
      const chat = chats.get(session_id);
      if (!chat || chat.blocked) continue;
      const base = {
        chat: { session_id, customer_language: chat.customer_language },
        title: chat.remark || chat.customer_name || chat.receiver_phone,
      };
      // The note is a member's words to a member: shown as written. Without one, the
      // customer's latest message, as a message notification shows it.
      if (note) notices.set(session_id, { ...base, text: '', sign: note.content, key: '' });
      else if (!notices.has(session_id)) {
        const last = chat.last_in;
        notices.set(session_id, {
          ...base,
          text: last ? last.content.slice(0, BODY_MAX * 4) : '',
          sign: last ? MEDIA_SIGN[last.type] : HANDED_SIGN,
          key: last ? `${last.id}` : '',
        });
      }
    }
    if (notices.size === 0) return;
    // The chats this seat muted are not notified.
    const muted = await mutesRepository.mutedAmong(this.db, seatId, [...notices.keys()]);
    const translated = new Map<string, string | null>();
    for (const [sessionId, notice] of notices) {
      if (muted.has(sessionId)) continue;
      const base: PushPayload = {
        title: notice.title,
        body: cut(notice.text || notice.sign),
        url: `/home/chat?chat=${sessionId}`,
        tag: `chat-${sessionId}`,
        session_id: sessionId,
      };
      await Promise.all(
        subs.map(async (sub) => {
          let payload = base;
          const target = sub.translate_to as TranslationLanguageCode | null;
          if (target && notice.text) {
            const key = `${notice.key}:${target}`;
            if (!translated.has(key)) {
              translated.set(key, await this.translated(seatId, notice.chat, notice.text, target));
            }
            const t = translated.get(key);
            if (t) payload = { ...base, body: cut(t) };
          }
          await this.send(sub, payload);
        }),
      );
    }
  }

  private async translated(
    seatId: number,
    session: NoticeChat,
    text: string,
    target: TranslationLanguageCode,
  ): Promise<string | null> {
    if (!this.translate) return null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), TRANSLATE_BUDGET_MS);
    });
    try {
      return await Promise.race([
        this.translate(seatId, session, text, target).catch(() => null),
        late,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** One message to one device; a subscription the push service says is gone is deleted. */
  private async send(
    sub: { endpoint_hash: string; endpoint: string; p256dh: string; auth: string },
    payload: PushPayload,
  ): Promise<'sent' | 'gone' | 'failed' | 'refused'> {
    try {
      await webpush.sendNotification(
        { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
        JSON.stringify(payload),
        {
          vapidDetails: {
            subject: this.subject,
            publicKey: this.keys.publicKey,
            privateKey: this.keys.privateKey,
          },
          TTL: TTL_SECONDS,
          urgency: 'high',
          contentEncoding: 'aes128gcm',
          agent: this.endpoints.agent,
          timeout: SEND_TIMEOUT_MS,
        },
      );
      return 'sent';
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode;
      if (status === 404 || status === 410) {
        await pushRepository.deleteGone(this.db, sub.endpoint_hash);
        return 'gone';
      }
      const refusedHere = (err as { code?: string }).code === 'EPUSHREFUSED';
      this.log.warn(
        { status, err: refusedHere ? undefined : err, endpointHash: sub.endpoint_hash },
        refusedHere ? 'push endpoint resolves to a refused address' : 'push send failed',
      );
      return refusedHere ? 'refused' : 'failed';
    }
  }
}

/** At most BODY_MAX characters, whole code points. */
function cut(text: string): string {
  const chars = [...text];
  return chars.length <= BODY_MAX ? text : `${chars.slice(0, BODY_MAX - 1).join('')}…`;
}
