import type { MediaKind, MessageType } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import { forbidden, invalidField, notFound, type AppError } from '../../lib/app-error.js';
import type { MediaService } from '../media/media.service.js';
import { CHAT_BLOCKED } from '../sessions/chat-blocked.js';

/**
 * The media kinds each message type takes. A `file` takes any kind: a photo or a recording
 * sent as a document (downloaded as it is rather than shown in the chat).
 */
export const MESSAGE_MEDIA: Record<Exclude<MessageType, 'text'>, readonly MediaKind[]> = {
  image: ['image'],
  audio: ['audio'],
  video: ['video'],
  file: ['image', 'audio', 'video', 'file'],
};

/**
 * What an operator's send is checked against, read in one statement: the sending account's
 * owner, the chat of the two numbers (its blocked flag and its group's type) and the message
 * the seat may already have stored under this client_msg_id. Absent parts are null.
 */
export interface SendContext {
  /** The seat that sends. */
  seat_id: number;
  account_seat_id: number | null;
  session_id: number | null;
  blocked: number | null;
  group_type: string | null;
  existing_id: number | null;
}

/** Each SendContext column as a SQL expression of the statement that checks it. */
export type SendContextSql = Record<keyof SendContext, string>;

interface SendRule {
  /** The send passes (TypeScript: a send checked on its own, both databases). */
  passes(c: SendContext): boolean;
  /** The same test in SQL (PostgreSQL's batch statement of text sends filters with it). */
  sql(c: SendContextSql): string;
  /** What a send that fails it gets: a refusal, or `replay`: the stored message. */
  fails: 'replay' | (() => AppError);
}

/**
 * The rules of an operator's send, in the order they are answered, written once: a send
 * checked on its own runs `passes`, PostgreSQL's batch statement of text sends writes only
 * the sends every `sql` lets through (a send it leaves out is then checked on its own, which
 * says why). test/message-writers.test.ts holds both writers to the same answers.
 */
export const SEND_RULES: readonly SendRule[] = [
  // Sent once per (seat, client_msg_id): a retry gets the stored message back.
  {
    passes: (c) => c.existing_id === null,
    sql: (c) => `${c.existing_id} is null`,
    fails: 'replay',
  },
  // From an account of this seat, or to a chat of the account the seat holds: a team
  // account's chat given to this member (docs/decisions/2026-11-29-team-accounts.md). A seat
  // holds a chat of another's account no other way (an account's reassignment moves its chats).
  {
    passes: (c) =>
      (c.account_seat_id !== null && c.account_seat_id === c.seat_id) || c.session_id !== null,
    sql: (c) => `(${c.account_seat_id} = ${c.seat_id} or ${c.session_id} is not null)`,
    fails: forbidden,
  },
  // To a chat of this seat.
  {
    passes: (c) => c.session_id !== null,
    sql: (c) => `${c.session_id} is not null`,
    fails: notFound,
  },
  // Not to a blocked chat.
  {
    passes: (c) => !CHAT_BLOCKED.is(c),
    sql: (c) => `not ${CHAT_BLOCKED.sql(c)}`,
    fails: forbidden,
  },
];

/** The first rule the send fails: `replay`, a refusal to throw, or null (it may be written). */
export function firstFailure(c: SendContext): 'replay' | AppError | null {
  for (const rule of SEND_RULES) {
    if (!rule.passes(c)) return rule.fails === 'replay' ? 'replay' : rule.fails();
  }
  return null;
}

/** Every rule as one SQL condition over the statement's columns. */
export function sendRulesSql(c: SendContextSql): string {
  return SEND_RULES.map((rule) => `(${rule.sql(c)})`).join(' and ');
}

/** The media of a non-text message: this seat's (else 400001) and of a fitting kind. */
export function mediaOfMessage(
  media: MediaService,
  db: Db,
  seatId: number,
  type: MessageType,
  mediaId: string | undefined,
) {
  if (type === 'text') return null;
  if (!mediaId) throw invalidField('media_id', 'required');
  return media.ownedFor(db, seatId, mediaId, MESSAGE_MEDIA[type]);
}
