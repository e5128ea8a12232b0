import type { MessageType } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { GroupRow, MessageRow, SessionRow } from '../../db/schema.js';
import { invalidField } from '../../lib/app-error.js';
import { groupsRepository } from '../groups/groups.repository.js';
import { toStoredMedia } from '../media/media.presenter.js';
import type { MediaService } from '../media/media.service.js';
import { createChat } from '../sessions/create-chat.js';
import { REPLY_WINDOW } from '../sessions/reply-window.js';
import { sessionsRepository } from '../sessions/sessions.repository.js';
import { previewOf, storedQuoteOf } from './messages.presenter.js';
import { messagesRepository } from './messages.repository.js';
import { RECEIVE_RULES } from './receive-rules.js';
import { MESSAGE_MEDIA, mediaOfMessage } from './send-rules.js';

const ANY_KIND = MESSAGE_MEDIA.file;

/**
 * The message a customer's message replies to, as its channel names it (any channel):
 * Parley's id (refused with 100001 naming `field` when it is not a message of the chat), or
 * the channel's own id of it (`externalId`: the id the channel gave a delivered or received
 * message; `inboundId`: the key its inbound record took, when the channel's differs), left
 * out when the chat has no such message (one from before Parley saw the chat).
 */
export type InboundQuote =
  { msgId: number; field: string } | { externalId: string; inboundId?: string };

/** A customer's message as a channel hands it over (its account already found). */
export interface ReceivedMessage {
  seatId: number;
  /** The channel of the account (a reply names its quote in that channel's ids). */
  channel: string;
  sendPhone: string;
  receiverPhone: string;
  content: string;
  /** Absent with a media: the media's own kind. */
  type?: MessageType;
  mediaId?: string;
  at: number;
  /** The channel's id of the message (stored with it). */
  externalId?: string;
  /** The customer's display name as the channel gives it: absent or empty keeps the chat's. */
  customerName?: string;
  /** A reply: the quoted message, as the channel names it. */
  replyTo?: InboundQuote;
}

export type ReceivedOne =
  | { blocked: true }
  | {
      blocked: false;
      row: MessageRow;
      /** The chat as updated (absent only were it deleted meanwhile). */
      session: SessionRow | undefined;
      sessionId: number;
      sessionCreated: boolean;
    };

/**
 * One customer's message into its chat, in the caller's transaction, without its events: the
 * chat (created on first contact in the seat's Ungrouped group; a blocked chat takes nothing),
 * the message with its quote, and the chat's latest activity, unread count and customer name.
 * The one write of an inbound message by message, under the receive rules (receive-rules.ts):
 * both inbound writers call it (PostgreSQL's for a batch it cannot write in its statements). `ungrouped` caches the seats' Ungrouped groups
 * across one batch.
 */
export async function receiveOne(
  trx: Db,
  media: MediaService,
  input: ReceivedMessage,
  ungrouped = new Map<number, GroupRow | undefined>(),
): Promise<ReceivedOne> {
  const { seatId } = input;
  let session = await sessionsRepository.findByPhones(
    trx,
    seatId,
    input.sendPhone,
    input.receiverPhone,
  );
  if (session && RECEIVE_RULES.blocked.is(session)) {
    return { blocked: true };
  }
  let type: MessageType = input.type ?? 'text';
  let stored = null;
  if (input.mediaId !== undefined) {
    // Each media kind has the message type of the same name.
    if (type === 'text') type = (await media.ownedFor(trx, seatId, input.mediaId, ANY_KIND)).kind;
    stored = await mediaOfMessage(media, trx, seatId, type, input.mediaId);
  } else if (type !== 'text') {
    throw invalidField('media_id', 'required');
  }
  const sessionCreated = !session;
  if (!session) {
    if (!ungrouped.has(seatId)) {
      ungrouped.set(seatId, await groupsRepository.findByType(trx, seatId, RECEIVE_RULES.opensIn));
    }
    const group = ungrouped.get(seatId);
    if (!group) throw new Error(`seat ${seatId} has no ungrouped group`);
    session = await createChat(trx, {
      seatId,
      sendPhone: input.sendPhone,
      receiverPhone: input.receiverPhone,
      ungrouped: group,
      at: input.at,
    });
  }
  const quoted = sessionCreated ? null : await quotedBy(trx, session.id, input);
  const row = await messagesRepository.insert(trx, {
    session_id: session.id,
    seat_id: seatId,
    client_msg_id: null,
    reply_to_id: quoted?.id ?? null,
    reply_quote: quoted ? storedQuoteOf(quoted) : null,
    direction: 'in',
    type,
    content: input.content,
    media: stored ? JSON.stringify(toStoredMedia(stored)) : null,
    media_id: stored?.media_id ?? null,
    status: 'delivered',
    created_at: input.at,
    deleted_for_me: 0,
    deleted_for_all: 0,
    ...(input.externalId !== undefined ? { external_id: input.externalId } : {}),
  });
  const updated = await sessionsRepository.recordIncoming(trx, session.id, {
    time: input.at,
    preview: previewOf(row),
    type,
    customerName: input.customerName || undefined,
    replyUntil: REPLY_WINDOW.after(input.channel, input.at),
  });
  return { blocked: false, row, session: updated, sessionId: session.id, sessionCreated };
}

/** The message of the chat an inbound reply quotes (null: none, or unknown to the chat). */
async function quotedBy(trx: Db, sessionId: number, input: ReceivedMessage) {
  const ref = input.replyTo;
  if (!ref) return null;
  if ('msgId' in ref) {
    const quoted = await messagesRepository.findQuotable(trx, sessionId, ref.msgId);
    if (!quoted) throw invalidField(ref.field, 'not a message of this chat');
    return quoted;
  }
  const quoted = await messagesRepository.findQuotableByChannelId(trx, sessionId, {
    channel: input.channel,
    sendPhone: input.sendPhone,
    externalId: ref.externalId,
    inboundId: ref.inboundId ?? ref.externalId,
  });
  return quoted ?? null;
}
