import type { AdminPhoneAccount, OutboxItem, TelegramStatus } from '@parley/protocol';
import { maskSecret } from '../../lib/mask-secret.js';
import type { MessageRow } from '../../db/schema.js';
import { previewOf } from '../messages/messages.presenter.js';

/** A poll newer than this is "polling"; older is "stalled" (a long-poll lasts under a minute). */
export const TELEGRAM_STALLED_MS = 90_000;

const n = (v: unknown) => Number(v ?? 0);
const nOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export interface AccountViewRow {
  id: number;
  send_phone: string;
  label: string;
  channel: AdminPhoneAccount['channel'];
  seat_id: number | null;
  created_at: number;
  seat_account: string | null;
  bot_id: string | null;
  bot_username: string | null;
  bot_token: string | null;
  bot_created_at: number | null;
  last_poll_at: number | null;
  last_error: string | null;
  last_error_at: number | null;
  chats: number | string | bigint | null;
}

export function toTelegramStatus(row: AccountViewRow, now: number): TelegramStatus | null {
  if (row.bot_id === null) return null;
  const lastPoll = nOrNull(row.last_poll_at);
  const lastErrorAt = nOrNull(row.last_error_at);
  const state: TelegramStatus['state'] =
    lastErrorAt !== null && (lastPoll === null || lastErrorAt >= lastPoll)
      ? 'error'
      : lastPoll === null
        ? 'starting'
        : now - lastPoll > TELEGRAM_STALLED_MS
          ? 'stalled'
          : 'polling';
  return {
    bot_id: row.bot_id,
    bot_username: row.bot_username ?? '',
    token: maskSecret(row.bot_token ?? ''),
    state,
    last_poll_at: lastPoll,
    last_error: row.last_error,
    last_error_at: lastErrorAt,
    bound_at: n(row.bot_created_at),
  };
}

export function toAdminAccount(row: AccountViewRow, now: number): AdminPhoneAccount {
  return {
    account_id: row.id,
    send_phone: row.send_phone,
    label: row.label,
    channel: row.channel,
    seat_id: row.seat_id,
    seat_account: row.seat_account,
    chats: n(row.chats),
    telegram: toTelegramStatus(row, now),
    created_at: n(row.created_at),
  };
}

export interface OutboxViewRow {
  id: number;
  msg_id: number;
  kind: OutboxItem['kind'];
  status: OutboxItem['status'];
  attempts: number;
  last_error: string | null;
  next_at: number;
  created_at: number;
  updated_at: number;
  seat_id: number;
  seat_account: string;
  session_id: number;
  type: MessageRow['type'];
  content: string;
  send_phone: string;
  receiver_phone: string;
}

export function toOutboxItem(row: OutboxViewRow): OutboxItem {
  return {
    outbox_id: row.id,
    msg_id: row.msg_id,
    kind: row.kind,
    status: row.status,
    attempts: n(row.attempts),
    last_error: row.last_error,
    next_at: n(row.next_at),
    created_at: n(row.created_at),
    updated_at: n(row.updated_at),
    seat_id: row.seat_id,
    seat_account: row.seat_account,
    session_id: row.session_id,
    send_phone: row.send_phone,
    receiver_phone: row.receiver_phone,
    preview: previewOf({ type: row.type, content: row.content, media: null }),
  };
}
