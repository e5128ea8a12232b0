import type { ChannelName, ChatMessage, MessageType } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { ParleyMetrics } from '../../metrics/metrics.js';
import type { InboundKey } from './inbound.repository.js';
import type { CleanedReason, RefusalReason } from './receive-rules.js';
import type { InboundQuote } from './receive-one.js';

/** A customer's message as its channel hands it to the door (account found, media stored). */
export interface InboundMessage {
  /** The channel of the account (a reply names its quote in that channel's ids). */
  channel: ChannelName;
  seatId: number;
  /**
   * Whether `seatId` is a team's queue seat, as the channel's read of the account found
   * (docs/decisions/2026-11-29-team-accounts.md). Absent: not read (the team door reads it once
   * per seat).
   */
  queueSeat?: boolean;
  /**
   * Taken once: a second message with this key is answered as taken. Absent: the message has
   * no id of its channel (the CLI's `chat:receive`).
   */
  key?: InboundKey;
  /** The channel's id stored with the message (default: the key's). */
  externalId?: string;
  sendPhone: string;
  receiverPhone: string;
  /** A channel's own word is refused unless it is one of Parley's types (receive rules). */
  type: MessageType | (string & {});
  content: string;
  mediaId?: string;
  at: number;
  /** The customer's display name as the channel gives it (absent or empty: the chat's). */
  customerName?: string;
  /** A reply: the quoted message, as the channel names it. */
  replyTo?: InboundQuote;
  /**
   * The channel's own rows of this message (WhatsApp's contact and wamid, Telegram's profile
   * link), written in the message's transaction once it is stored or found blocked: they
   * commit with it or not at all (`channelRows`).
   */
  hook?: InboundHook;
}

export type Stored = {
  kind: 'stored';
  msgId: number;
  /** The message as the seat's consoles got it. */
  message: ChatMessage;
  seatId: number;
  sessionId: number;
  /** First contact: the chat was opened by this message. */
  chatCreated: boolean;
};

export type InboundOutcome =
  | Stored
  | { kind: 'blocked'; seatId: number }
  /** The same key was taken before or meanwhile (a redelivery, a replay). */
  | { kind: 'taken' }
  /** Refused by the receive rules (logged and counted). */
  | { kind: 'refused'; reason: RefusalReason };

/** What a message's own rows are written with: it was stored, or its chat is blocked. */
export type Hooked = Stored | { kind: 'blocked'; seatId: number };

/**
 * A channel's writer of its own rows: one call for all the messages of a batch that carry
 * it, in batch order, so that a batch costs a fixed number of statements whatever its size
 * (multi-row inserts and upserts), as the messages' own statements do on PostgreSQL.
 */
export interface ChannelRows<R> {
  write(trx: Db, messages: { rows: R; outcome: Hooked }[]): Promise<void>;
}

/** A message's own rows and their writer (`channelRows`). */
export interface InboundHook {
  readonly writer: ChannelRows<unknown>;
  readonly rows: unknown;
}

/** The hook of a message whose own rows `rows` are written by `writer` with its batch's. */
export const channelRows = <R>(writer: ChannelRows<R>, rows: R): InboundHook => ({
  writer: writer as ChannelRows<unknown>,
  rows,
});

/**
 * The channels' own rows of these messages (in batch order): one call per writer, so one
 * batch's rows of a channel go in together.
 */
export async function writeChannelRows(
  trx: Db,
  done: { hook: InboundHook | undefined; outcome: InboundOutcome }[],
): Promise<void> {
  const byWriter = new Map<ChannelRows<unknown>, { rows: unknown; outcome: Hooked }[]>();
  for (const { hook, outcome } of done) {
    if (!hook || (outcome.kind !== 'stored' && outcome.kind !== 'blocked')) continue;
    const list = byWriter.get(hook.writer) ?? [];
    list.push({ rows: hook.rows, outcome });
    byWriter.set(hook.writer, list);
  }
  for (const [writer, messages] of byWriter) await writer.write(trx, messages);
}

/** Where a refusal is said: one line, no stack. */
export interface InboundLog {
  warn(obj: object, msg: string): void;
}

/**
 * The one door customers' messages come in by, for every channel (platform, sandbox, Telegram,
 * WhatsApp, the CLI's `chat:receive`). One implementation per database, chosen once where the
 * app is wired (services.ts) as the MessageWriter is: GroupCommitInboundWriter (SQLite) and
 * BatchInboundWriter (PostgreSQL). Each message is judged alone by the receive rules
 * (receive-rules.ts): cleaned, or refused with a reason, before it is written; the messages
 * handed in together share a commit, and one that fails never fails the others.
 */
export interface InboundWriter {
  /** A customer's message, answered once its fate is committed. */
  write(message: InboundMessage): Promise<InboundOutcome>;
  /**
   * A message the channel refused before it could hand it in (its schema, no seat): one log
   * line and the count by channel and reason, as the door's own refusals.
   */
  refuse(channel: ChannelName, reason: RefusalReason, detail?: Record<string, unknown>): void;
  /** Counts refusals and cleanings in these metrics (app.ts, when metrics are on). */
  observe(metrics: ParleyMetrics): void;
}

/** A value said in a log line: a string cut short (a 5,000-character id says enough in 64). */
const brief = (v: unknown) => (typeof v === 'string' && v.length > 64 ? `${v.slice(0, 64)}…` : v);

/** What both writers say of the messages they refused or cleaned: a log line, a count. */
export class InboundVerdicts {
  private metrics: ParleyMetrics | null = null;

  constructor(private readonly log: InboundLog = { warn: () => undefined }) {}

  observe(metrics: ParleyMetrics): void {
    this.metrics = metrics;
  }

  refused(channel: string, reason: RefusalReason, detail: Record<string, unknown> = {}): void {
    const fields = Object.fromEntries(Object.entries(detail).map(([k, v]) => [k, brief(v)]));
    this.log.warn({ ...fields, channel, reason }, 'inbound message refused');
    this.metrics?.inboundRefused.inc({ channel, reason });
  }

  cleaned(channel: string, reasons: CleanedReason[]): void {
    for (const reason of reasons) this.metrics?.inboundCleaned.inc({ channel, reason });
  }
}
