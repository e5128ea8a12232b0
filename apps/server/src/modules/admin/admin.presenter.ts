import {
  NO_ACCOUNT_CHANNEL_FIELDS,
  type AccountChannelFields,
  type AdminPhoneAccount,
  type OutboxItem,
} from '@parley/protocol';
import type { MessageRow } from '../../db/schema.js';
import { previewOf } from '../messages/messages.presenter.js';

const n = (v: unknown) => Number(v ?? 0);

export interface AccountViewRow {
  id: number;
  send_phone: string;
  label: string;
  channel: AdminPhoneAccount['channel'];
  seat_id: number | null;
  created_at: number;
  seat_account: string | null;
  chats: number | string | bigint | null;
}

/** `channelFields`: what the account's channel shows of it (ChannelCredentials.accountFields). */
export function toAdminAccount(
  row: AccountViewRow,
  channelFields: Partial<AccountChannelFields> = {},
): AdminPhoneAccount {
  return {
    account_id: row.id,
    send_phone: row.send_phone,
    label: row.label,
    channel: row.channel,
    seat_id: row.seat_id,
    seat_account: row.seat_account,
    chats: n(row.chats),
    ...NO_ACCOUNT_CHANNEL_FIELDS,
    ...channelFields,
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
