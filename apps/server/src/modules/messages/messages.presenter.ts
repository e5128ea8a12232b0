import type { ChatMessage, MessageQuote } from '@parley/protocol';
import type { MessageRow } from '../../db/schema.js';
import type { MediaUrls } from '../media/media-urls.js';
import { toMedia, type StoredMedia } from '../media/media.presenter.js';

/**
 * The ChatMessage fields the database assigns as it stores the message: a statement that
 * records a message's event as it writes the message (the batch statement of sends) fills
 * them into the presented draft from these columns (chatMessageAssignedSql).
 */
export const CHAT_MESSAGE_ASSIGNED = {
  msg_id: 'id',
  session_id: 'session_id',
} as const satisfies Partial<Record<keyof ChatMessage, keyof MessageRow>>;

/** CHAT_MESSAGE_ASSIGNED as a PostgreSQL jsonb object of the row `row` (a composite value). */
export function chatMessageAssignedSql(row: string): string {
  const pairs = Object.entries(CHAT_MESSAGE_ASSIGNED).map(
    ([field, column]) => `'${field}', (${row}).${column}`,
  );
  return `jsonb_build_object(${pairs.join(', ')})`;
}

/** A message as the seat that holds it sees it; its media URLs are signed for that seat. */
export function toChatMessage(row: MessageRow, urls: MediaUrls): ChatMessage {
  const deleted = row.deleted_for_all === 1;
  return {
    msg_id: row[CHAT_MESSAGE_ASSIGNED.msg_id],
    session_id: row[CHAT_MESSAGE_ASSIGNED.session_id],
    client_msg_id: row.client_msg_id,
    direction: row.direction,
    type: row.type,
    content: deleted ? '' : row.content,
    original_content: deleted ? null : (row.original_content ?? null),
    media:
      !deleted && row.media
        ? toMedia(JSON.parse(row.media) as StoredMedia, row.seat_id, urls)
        : null,
    status: row.status,
    fail_reason: row.status === 'failed' ? (row.fail_reason ?? null) : null,
    created_at: row.created_at,
    deleted,
    reply_to: row.reply_to_id ?? null,
    quote: toQuote(row),
    reaction: deleted ? null : (row.reaction ?? null),
  };
}

/** What a reply keeps of the message it quotes (`messages.reply_quote`, JSON). */
export type StoredQuote = Pick<MessageQuote, 'direction' | 'type' | 'preview'>;

/** The quote of a message about to quote `quoted` (stored as the reply is written). */
export function storedQuoteOf(
  quoted: Pick<MessageRow, 'direction' | 'type' | 'content' | 'media'>,
): string {
  const quote: StoredQuote = {
    direction: quoted.direction,
    type: quoted.type,
    preview: previewOf(quoted),
  };
  return JSON.stringify(quote);
}

/** A reply's quote: its kept preview, or "deleted" once the quoted message was retracted. */
function toQuote(row: Pick<MessageRow, 'reply_to_id' | 'reply_quote'>): MessageQuote | null {
  if (row.reply_to_id === null || row.reply_to_id === undefined) return null;
  if (row.reply_quote === null || row.reply_quote === undefined) {
    return { msg_id: row.reply_to_id, direction: 'in', type: 'text', preview: '', deleted: true };
  }
  const kept = JSON.parse(row.reply_quote) as StoredQuote;
  return { msg_id: row.reply_to_id, ...kept, deleted: false };
}

/**
 * The one-line preview of a chat's last message in the user list: a text's text, a file's name,
 * another media's caption (often empty). Never a placeholder: the console shows the message's
 * type as a translated label beside it (`last_message.type`).
 */
export function previewOf(message: Pick<MessageRow, 'type' | 'content' | 'media'>): string {
  const fileName =
    message.type === 'file' && message.media
      ? (JSON.parse(message.media) as StoredMedia).file_name
      : '';
  return (fileName || message.content).replace(/\s+/g, ' ').trim().slice(0, 100);
}
