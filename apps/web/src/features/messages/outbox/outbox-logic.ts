import {
  ERROR_CODES,
  MESSAGE_DIRECTIONS,
  MESSAGE_TYPES,
  type Media,
  type MessageQuote,
} from '@parley/protocol';
import { ApiError } from '../../../lib/api-core';
import type { LocalMessage } from '../local-messages.store';

/**
 * What a failed send means for the message:
 * - `offline`: the server could not be reached (network error, time-out, 500005): keep it,
 *   show it as waiting and send it again by itself;
 * - `expired`: the login expired (400002): keep it waiting, stop trying until a new login;
 * - `cancelled`: the request was aborted on purpose (logout);
 * - `refused`: the server answered with any other code: failed, with a retry.
 */
export type SendFailure = 'offline' | 'expired' | 'cancelled' | 'refused';

export function classifySendError(err: unknown): SendFailure {
  if (err instanceof DOMException && err.name === 'AbortError') return 'cancelled';
  if (!(err instanceof ApiError)) return 'refused';
  if (err.code === ERROR_CODES.SERVER_BUSY) return 'offline';
  if (err.code === ERROR_CODES.TOKEN_EXPIRED) return 'expired';
  return 'refused';
}

export const RETRY_BASE_MS = 1_000;
export const RETRY_MAX_MS = 10_000;

/**
 * Back-off before the n-th automatic retry (0-based): 1, 2, 4, 8, then 10 s, each with up
 * to 20 % taken off at random so that many consoles do not come back in step.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const plain = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempt));
  return Math.round(plain * (1 - 0.2 * random()));
}

/** Ready to go to the server: text, or media already uploaded, and not refused. */
export function isSendable(l: LocalMessage): boolean {
  if (l.status === 'failed' || l.upload) return false;
  return l.type === 'text' || l.media !== null;
}

/**
 * The messages to send now: in each chat the first sendable one, unless that chat already has
 * a request out. One request per chat at a time keeps each chat's order, and means a message
 * is never out twice at once however many triggers (timer, `online`, focus, retry) fire.
 * Refused messages and uploads in progress do not hold back the messages after them.
 */
export function pickReady(
  locals: readonly LocalMessage[],
  inFlight: ReadonlySet<number>,
): LocalMessage[] {
  const out: LocalMessage[] = [];
  const seen = new Set<number>();
  for (const l of locals) {
    if (seen.has(l.session_id) || inFlight.has(l.session_id)) continue;
    if (!isSendable(l)) continue;
    seen.add(l.session_id);
    out.push(l);
  }
  return out;
}

/** One unsent message as kept in localStorage (no upload in progress: a Blob is not kept). */
export interface StoredOutboxItem {
  client_msg_id: string;
  session_id: number;
  send_phone: string;
  receiver_phone: string;
  type: LocalMessage['type'];
  content: string;
  original_content: string | null;
  media: Media | null;
  created_at: number;
  failed: boolean;
  error: { code: string; msg: string } | null;
  /** A reply: the quoted message and its quote (absent in an outbox kept before replies). */
  reply_to?: number | null;
  quote?: MessageQuote | null;
}

export interface StoredOutbox {
  v: 1;
  items: StoredOutboxItem[];
}

/** The part of the local inserts that survives a reload: everything but unfinished uploads. */
export function toStored(locals: readonly LocalMessage[]): StoredOutbox {
  const items: StoredOutboxItem[] = [];
  for (const l of locals) {
    if (l.upload || (l.type !== 'text' && !l.media)) continue;
    items.push({
      client_msg_id: l.client_msg_id,
      session_id: l.session_id,
      send_phone: l.send_phone,
      receiver_phone: l.receiver_phone,
      type: l.type,
      content: l.content,
      original_content: l.original_content,
      media: l.media,
      created_at: l.created_at,
      failed: l.status === 'failed',
      error: l.error ?? null,
      reply_to: l.reply_to,
      quote: l.quote,
    });
  }
  return { v: 1, items };
}

const CID = /^[A-Za-z0-9_-]{8,64}$/;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const oneOf = <T extends string>(values: readonly T[], v: unknown): v is T =>
  values.includes(v as T);

/**
 * A stored quote as the protocol's MessageQuote has it. By hand, not with its zod schema: the
 * outbox is read on the console's first screen, which does not load zod (issue 37).
 */
function isQuote(v: unknown): v is MessageQuote {
  return (
    isObj(v) &&
    Number.isSafeInteger(v.msg_id) &&
    (v.msg_id as number) > 0 &&
    oneOf(MESSAGE_DIRECTIONS, v.direction) &&
    oneOf(MESSAGE_TYPES, v.type) &&
    typeof v.preview === 'string' &&
    typeof v.deleted === 'boolean'
  );
}

function validItem(v: unknown): v is StoredOutboxItem {
  if (!isObj(v)) return false;
  const typeOk = oneOf(MESSAGE_TYPES, v.type);
  return (
    typeof v.client_msg_id === 'string' &&
    CID.test(v.client_msg_id) &&
    Number.isInteger(v.session_id) &&
    typeof v.send_phone === 'string' &&
    typeof v.receiver_phone === 'string' &&
    typeOk &&
    typeof v.content === 'string' &&
    typeof v.created_at === 'number' &&
    (v.type === 'text' ? true : isObj(v.media) && typeof v.media.media_id === 'string')
  );
}

/** A stored item's reply, kept only when whole (an id and its quote of that id). */
function storedReply(i: StoredOutboxItem): Pick<LocalMessage, 'reply_to' | 'quote'> {
  const quote = i.quote;
  return Number.isInteger(i.reply_to) && isQuote(quote) && quote.msg_id === i.reply_to
    ? {
        reply_to: i.reply_to!,
        quote: {
          msg_id: quote.msg_id,
          direction: quote.direction,
          type: quote.type,
          preview: quote.preview,
          deleted: quote.deleted,
        },
      }
    : { reply_to: null, quote: null };
}

/**
 * Reads a stored outbox back into local inserts. Anything unreadable is dropped rather than
 * breaking the console; messages that were on their way are tried again (`pending`).
 */
export function fromStored(raw: string | null): LocalMessage[] {
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!isObj(parsed) || parsed.v !== 1 || !Array.isArray(parsed.items)) return [];
  return parsed.items.filter(validItem).map((i) => ({
    msg_id: 0,
    session_id: i.session_id,
    client_msg_id: i.client_msg_id,
    direction: 'out' as const,
    type: i.type,
    content: i.content,
    original_content: typeof i.original_content === 'string' ? i.original_content : null,
    media: i.type === 'text' ? null : i.media,
    status: i.failed ? ('failed' as const) : ('pending' as const),
    fail_reason: null,
    created_at: i.created_at,
    deleted: false,
    ...storedReply(i),
    reaction: null,
    isLocalInsert: true as const,
    send_phone: i.send_phone,
    receiver_phone: i.receiver_phone,
    error: i.failed && isObj(i.error) ? i.error : null,
  }));
}
