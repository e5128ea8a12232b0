import type { Readable } from 'node:stream';
import type { ChannelName, MessageFailReason, MessageType } from '@parley/protocol';
import type { Db } from '../db/database.js';
import type { PhoneAccountRow } from '../db/schema.js';
import type { ChannelCredentials } from '../modules/accounts/channel-credentials.js';
import type { Greeting, GreetingInput } from '../modules/sessions/sessions.service.js';

export type { Greeting, GreetingInput };

/**
 * How an operator's action leaves Parley for the customer: one adapter per channel of a phone
 * account (`phone_accounts.channel`: the messaging platform's HTTP API, the built-in customer
 * sandbox, a Telegram bot). The outbox worker hands each item to the adapter of its account's
 * channel and records the result; it retries a retryable failure with back-off.
 */
export type { ChannelName };

/*
 * And how a customer's message comes in, whatever the channel: the inbound door
 * (InboundWriter, modules/messages/inbound-writer.ts; its hook writes the channel's own rows), with
 * `customerName`, the display name the channel gives the customer (a Telegram profile's
 * names, the platform's `name`), kept on the chat and shown unless the seat set a remark;
 * what a channel learns of a customer later (a profile photo, stored as a media of the seat)
 * goes to MessagesService.updateCustomer.
 */

export interface OutboundMedia {
  media_id: string;
  mime: string;
  size: number;
  file_name: string;
  duration_ms: number | null;
  /** The stored bytes. */
  open(): Promise<Readable>;
}

export type OutboundItem =
  | {
      kind: 'message';
      /** Parley's message id; the platform echoes it in delivery receipts. */
      msgId: number;
      account: PhoneAccountRow;
      receiverPhone: string;
      type: MessageType;
      /** Text, or the caption of a media message. */
      content: string;
      media: OutboundMedia | null;
      /**
       * A reply: the quoted message of the chat, by Parley's id and by the id its channel gave
       * it (null when it has none: never delivered, or the customer's sandbox). Null: no reply.
       */
      replyTo?: { msgId: number; externalId: string | null } | null;
    }
  | {
      /** A message deleted "for all": retract it on the channel. */
      kind: 'delete';
      msgId: number;
      /** The id the channel gave the message when it was delivered (null if never). */
      externalId: string | null;
      account: PhoneAccountRow;
      receiverPhone: string;
    };

export type DeliveryResult =
  | { ok: true; /** The channel's id of the delivered message. */ externalId: string | null }
  | {
      ok: false;
      /** Worth trying again later (network, 5xx, rate limit); false: give up, mark failed. */
      retryable: boolean;
      error: string;
      /** A rate limit's requested pause, when the channel says. */
      retryAfterMs?: number;
      /**
       * The channel asked to wait (a rate limit, its throughput reached): tried again after
       * the pause without counting the attempt, so a busy channel never fails a message.
       */
      throttled?: boolean;
      /** A refusal for good the console has words for (shown on the message). */
      failReason?: MessageFailReason;
    };

export interface ChannelAdapter {
  readonly channel: ChannelName;
  deliver(item: OutboundItem): Promise<DeliveryResult>;
  /**
   * Whether an operator may open a chat with a customer who has not written yet (a Telegram
   * bot cannot: it needs the customer's profile). Absent: always.
   */
  canOpenChat?(db: Db, account: PhoneAccountRow, receiverPhone: string): Promise<boolean>;
  /**
   * What addSession's greeting is on this channel (WhatsApp: only an approved template reaches
   * someone who has not written in 24 hours): the message's text, and what to record with it
   * in the transaction that writes it. Absent: the greeting text as given, and no template.
   */
  greeting?(db: Db, account: PhoneAccountRow, input: GreetingInput): Promise<Greeting>;
  /** The account's credentials on this channel, for the admin console and the CLI. Absent: none. */
  readonly credentials?: ChannelCredentials;
}
