import type { MediaKind, MessageType } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { WhatsappNumberRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { inTransaction } from '../../lib/tx.js';
import type { MediaService } from '../../modules/media/media.service.js';
import type { MessagesService } from '../../modules/messages/messages.service.js';
import type { SeatEvents } from '../../modules/events/seat-events.js';
import { accountsRepository } from '../../modules/accounts/accounts.repository.js';
import { recordDeliveryStatus } from '../../modules/outbox/delivery-status.js';
import { inboundRepository, type InboundKey } from '../inbound.repository.js';
import { OutboundRefused, type OutboundPolicy } from '../../lib/outbound-fetch.js';
import { GRAPH_ID, GraphApi } from './graph-api.js';
import { markTokenRefused } from './number-state.js';
import { whatsappRepository } from './whatsapp.repository.js';

/** The parts of a webhook's `messages` change Parley reads (Cloud API v21.0 webhook reference). */
export interface WaMessage {
  from: string;
  id: string;
  timestamp?: string;
  type: string;
  context?: { from?: string; id?: string };
  text?: { body?: string };
  image?: WaMediaPart;
  audio?: WaMediaPart & { voice?: boolean };
  video?: WaMediaPart;
  document?: WaMediaPart & { filename?: string };
  sticker?: WaMediaPart & { animated?: boolean };
  location?: { latitude?: number; longitude?: number; name?: string; address?: string };
  contacts?: Array<{
    name?: { formatted_name?: string };
    phones?: Array<{ phone?: string; wa_id?: string }>;
    emails?: Array<{ email?: string }>;
  }>;
  button?: { text?: string };
  /** A reaction to a message (ours or the customer's, by wamid); `emoji` "" removes it. */
  reaction?: { message_id?: string; emoji?: string };
  interactive?: { button_reply?: { title?: string }; list_reply?: { title?: string } };
}

interface WaMediaPart {
  id?: string;
  mime_type?: string;
  caption?: string;
}

export interface WaStatus {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed' | string;
  recipient_id?: string;
  errors?: Array<{ code?: number; title?: string; message?: string }>;
}

export interface WaChangeValue {
  metadata?: { phone_number_id?: string };
  contacts?: Array<{ wa_id?: string; profile?: { name?: string } }>;
  messages?: WaMessage[];
  statuses?: WaStatus[];
}

export interface WaWebhook {
  object?: string;
  entry?: Array<{ changes?: Array<{ field?: string; value?: WaChangeValue }> }>;
}

const MEDIA_KINDS: Record<string, { kind: MediaKind; type: MessageType; fallbackName: string }> = {
  image: { kind: 'image', type: 'image', fallbackName: 'image.jpg' },
  sticker: { kind: 'image', type: 'image', fallbackName: 'sticker.webp' },
  audio: { kind: 'audio', type: 'audio', fallbackName: 'audio.ogg' },
  video: { kind: 'video', type: 'video', fallbackName: 'video.mp4' },
  document: { kind: 'file', type: 'file', fallbackName: 'document' },
};

/** A shared location as text an operator reads (and a map link). */
function locationText(l: NonNullable<WaMessage['location']>): string {
  const lines = [l.name, l.address].filter((s): s is string => !!s?.trim());
  if (typeof l.latitude === 'number' && typeof l.longitude === 'number') {
    lines.push(`📍 ${l.latitude}, ${l.longitude}`);
    lines.push(`https://www.openstreetmap.org/?mlat=${l.latitude}&mlon=${l.longitude}`);
  }
  return lines.join('\n') || '📍';
}

/** Shared contact cards as text: a name and its numbers and e-mails per card. */
function contactsText(cards: NonNullable<WaMessage['contacts']>): string {
  return cards
    .map((c) => {
      const parts = [
        ...(c.phones ?? []).map((p) => p.phone ?? (p.wa_id ? `+${p.wa_id}` : '')),
        ...(c.emails ?? []).map((e) => e.email ?? ''),
      ].filter(Boolean);
      return `👤 ${c.name?.formatted_name ?? ''}${parts.length ? `: ${parts.join(', ')}` : ''}`;
    })
    .join('\n');
}

export interface InboundLog {
  warn(obj: object, msg: string): void;
}

/** The customer number of a WhatsApp user in Parley: their wa_id (the phone number) with '+'. */
export const customerNumberOf = (waId: string) => `+${waId}`;
/** WhatsApp's `to` of a customer number. */
export const waIdOf = (customerNumber: string) => customerNumber.replace(/^\+/, '');

/**
 * A bound number's signed webhooks, already checked: customers' messages become chats and
 * messages (once per wamid, however often Meta delivers them), statuses move the ticks of the
 * operator's messages.
 */
export class WhatsappInbound {
  constructor(
    private readonly db: Db,
    private readonly graphUrl: string,
    /** Where a media URL from GET /{media-id} may lead (Meta's media hosts). */
    private readonly mediaPolicy: OutboundPolicy,
    private readonly messages: MessagesService,
    private readonly media: MediaService,
    private readonly events: SeatEvents,
    private readonly log: InboundLog,
  ) {}

  async handle(number: WhatsappNumberRow, payload: WaWebhook): Promise<void> {
    if (payload.object !== 'whatsapp_business_account') return;
    for (const entry of payload.entry ?? []) {
      for (const change of entry.changes ?? []) {
        const value = change.value;
        if (change.field !== 'messages' || !value) continue;
        // A change of another number (a shared app): not this account's.
        if (value.metadata?.phone_number_id !== number.phone_number_id) continue;
        for (const message of value.messages ?? []) {
          const name = value.contacts?.find((c) => c.wa_id === message.from)?.profile?.name;
          await this.message(number, message, name ?? null);
        }
        for (const status of value.statuses ?? []) await this.status(number, status);
      }
    }
  }

  private async message(number: WhatsappNumberRow, msg: WaMessage, profileName: string | null) {
    if (typeof msg.id !== 'string' || typeof msg.from !== 'string') return;
    if (!/^[0-9]{5,20}$/.test(msg.from)) return;
    const key: InboundKey = {
      channel: 'whatsapp',
      sendPhone: number.send_phone,
      externalId: msg.id,
    };
    if (msg.type === 'reaction') return this.reaction(number, msg, key);
    if (await inboundRepository.find(this.db, key)) return;
    const account = await accountsRepository.findByPhone(this.db, number.send_phone);
    if (!account || account.seat_id === null) {
      this.log.warn(
        { account: number.send_phone },
        'whatsapp message to an account no seat holds: dropped',
      );
      return;
    }
    const at = msg.timestamp ? Math.min(Number(msg.timestamp) * 1000, Date.now()) : Date.now();
    const content = await this.contentOf(number, account.seat_id, msg);
    if (!content) return; // a reaction, a system notice: nothing to show as a message
    const customer = customerNumberOf(msg.from);
    await inTransaction(this.db, async (trx) => {
      if (!(await inboundRepository.take(trx, key))) return;
      await whatsappRepository.recordContact(trx, {
        sendPhone: number.send_phone,
        waId: msg.from,
        profileName,
        at,
      });
      const result = await this.messages.receive(
        {
          sendPhone: number.send_phone,
          receiverPhone: customer,
          content: content.text,
          ...(content.mediaId ? { mediaId: content.mediaId, type: content.type } : {}),
          at,
          externalId: msg.id,
          account,
          ...(profileName ? { customerName: profileName } : {}),
          // A reply names its quote by wamid (ours as delivered, or the customer's).
          ...(msg.context?.id ? { replyTo: { externalId: msg.context.id } } : {}),
        },
        trx,
      );
      if ('blocked' in result) return;
      await inboundRepository.setMessage(trx, key, result.message.msg_id);
      await whatsappRepository.recordMessage(trx, {
        sendPhone: number.send_phone,
        wamid: msg.id,
        msgId: result.message.msg_id,
        direction: 'in',
        contextWamid: msg.context?.id ?? null,
      });
    });
  }

  /**
   * The customer reacted to a message (or took the reaction back: an empty emoji): kept on
   * that message, found by its wamid whichever way it went. The reaction's own wamid is taken
   * once, so a redelivered older reaction never replaces a newer one; a reaction to a message
   * Parley does not know (older than the binding, another number's) changes nothing.
   */
  private async reaction(number: WhatsappNumberRow, msg: WaMessage, key: InboundKey) {
    const target = msg.reaction?.message_id;
    const emoji = msg.reaction?.emoji;
    if (typeof target !== 'string' || typeof emoji !== 'string') return;
    // One emoji (a few code points with its modifiers), never a text.
    if (emoji.length > 32 || [...emoji].length > 10) return;
    await inTransaction(this.db, async (trx) => {
      const known = await whatsappRepository.findMessage(trx, number.send_phone, target);
      if (!known) return;
      if (!(await inboundRepository.take(trx, key))) return;
      await this.messages.react(trx, {
        sendPhone: number.send_phone,
        receiverPhone: customerNumberOf(msg.from),
        msgId: known.msg_id,
        reaction: emoji.trim() || null,
      });
    });
  }

  /** What the operator sees of a message: text, or a stored media with its caption. */
  private async contentOf(
    number: WhatsappNumberRow,
    seatId: number,
    msg: WaMessage,
  ): Promise<{ text: string; mediaId?: string; type?: MessageType } | null> {
    switch (msg.type) {
      case 'text':
        return msg.text?.body ? { text: msg.text.body } : null;
      case 'location':
        return msg.location ? { text: locationText(msg.location) } : null;
      case 'contacts':
        return msg.contacts?.length ? { text: contactsText(msg.contacts) } : null;
      case 'button':
        return msg.button?.text ? { text: msg.button.text } : null;
      case 'interactive': {
        const title = msg.interactive?.button_reply?.title ?? msg.interactive?.list_reply?.title;
        return title ? { text: title } : null;
      }
      case 'image':
      case 'sticker':
      case 'audio':
      case 'video':
      case 'document': {
        const part = msg[msg.type];
        const shape = MEDIA_KINDS[msg.type]!;
        const caption = (part && 'caption' in part ? part.caption : undefined) ?? '';
        const fileName =
          (msg.type === 'document' ? msg.document?.filename : undefined) ?? shape.fallbackName;
        const stored = part?.id
          ? await this.download(number, seatId, part.id, shape.kind, fileName)
          : null;
        if (!stored) return { text: caption || `[${msg.type}]` };
        return {
          text: caption,
          mediaId: stored.mediaId,
          type: stored.kind === shape.kind ? shape.type : 'file',
        };
      }
      default:
        // system, unsupported, ...: not a message of its own here (a reaction is its message's).
        return null;
    }
  }

  /** GET /{media-id} for its URL, then the bytes with the token; stored as Parley's media. */
  private async download(
    number: WhatsappNumberRow,
    seatId: number,
    mediaId: string,
    kind: MediaKind,
    fileName: string,
  ) {
    // Graph's media ids are digits: anything else is not one (a path, a query) and is not asked.
    if (!GRAPH_ID.test(mediaId)) {
      this.log.warn({ media: mediaId.slice(0, 64) }, 'whatsapp media id refused: not a Graph id');
      return null;
    }
    const api = new GraphApi(this.graphUrl, number.access_token, undefined, this.mediaPolicy);
    try {
      const info = await api.get<{ url?: string }>([mediaId]);
      if (typeof info?.url !== 'string') return null;
      try {
        const row = await this.media.storeStream(seatId, await api.download(info.url), {
          kind,
          fileName,
        });
        return { mediaId: row.media_id, kind: row.kind };
      } catch (err) {
        // Bytes that are not what WhatsApp called them still reach the operator, as a file.
        if (!(err instanceof AppError) || kind === 'file') throw err;
        const row = await this.media.storeStream(seatId, await api.download(info.url), {
          kind: 'file',
          fileName,
        });
        return { mediaId: row.media_id, kind: row.kind };
      }
    } catch (err) {
      if (err instanceof OutboundRefused) {
        this.log.warn(
          { reason: err.reason, url: err.url.slice(0, 200), media: mediaId },
          'whatsapp media URL refused',
        );
        return null;
      }
      await markTokenRefused(this.db, number.send_phone, err);
      this.log.warn({ err: String(err), media: mediaId }, 'whatsapp media not stored');
      return null;
    }
  }

  /** A status of an operator's message moves its tick (failed: with WhatsApp's reason). */
  private async status(number: WhatsappNumberRow, status: WaStatus) {
    if (!['sent', 'delivered', 'read', 'failed'].includes(status.status)) return;
    const known = await whatsappRepository.findMessage(this.db, number.send_phone, status.id);
    if (!known || known.direction !== 'out') return;
    // Refused past the 24-hour window (131047): the console says so on the message.
    const windowClosed = status.errors?.some((e) => e.code === 131047) ?? false;
    await recordDeliveryStatus(this.db, this.events, {
      msgId: known.msg_id,
      status: status.status as 'sent' | 'delivered' | 'read' | 'failed',
      failReason: windowClosed ? 'whatsapp_window' : null,
    });
    if (status.status === 'failed') {
      const e = status.errors?.[0];
      this.log.warn(
        { account: number.send_phone, msgId: known.msg_id, code: e?.code, error: e?.title },
        'whatsapp message failed',
      );
    }
  }
}
