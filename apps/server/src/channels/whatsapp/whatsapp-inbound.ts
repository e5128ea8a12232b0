import type { MediaKind, MessageType } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { WhatsappNumberRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { inTransaction } from '../../lib/tx.js';
import type { MediaService } from '../../modules/media/media.service.js';
import type { MessagesService } from '../../modules/messages/messages.service.js';
import {
  channelRows,
  type ChannelRows,
  type InboundOutcome,
  type InboundWriter,
} from '../../modules/messages/inbound-writer.js';
import type { SeatEvents } from '../../modules/events/seat-events.js';
import { recordDeliveryStatus } from '../../modules/outbox/delivery-status.js';
import { inboundRepository, type InboundKey } from '../../modules/messages/inbound.repository.js';
import { OutboundRefused, type OutboundPolicy } from '../../lib/outbound-fetch.js';
import { GRAPH_ID, GraphApi } from './graph-api.js';
import { markTokenRefused } from './number-state.js';
import { whatsappRepository, type WebhookNumber } from './whatsapp.repository.js';
import {
  waChange,
  waContact,
  waEntry,
  waEnvelope,
  waMessage,
  waStatus,
  waValue,
  type WaMessage,
  type WaStatus,
} from './whatsapp-webhook.js';

/** A webhook's body as it came (JSON.parse'd): each part is parsed on its own (whatsapp-webhook.ts). */
export type WaWebhook = unknown;

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

/** A list of a webhook's part: its items (absent: none), or null when it is not a list. */
function listAt(value: unknown): unknown[] | null {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : null;
}

/** WhatsApp's own rows of a customer's message: its contact, and its wamid once stored. */
interface WaRows {
  sendPhone: string;
  waId: string;
  profileName: string | null;
  at: number;
  wamid: string;
  contextWamid: string | null;
}

/**
 * WhatsApp's own rows of a batch's messages, in its transaction, in two statements whatever its
 * size: the contacts (each reply window opens, blocked or not; a contact's last message in the
 * batch gives its time, its last name given its name) and the wamids of the stored messages.
 */
const whatsappRows: ChannelRows<WaRows> = {
  async write(trx, messages) {
    const contacts = new Map<string, WaRows>();
    for (const { rows } of messages) {
      const key = `${rows.sendPhone}|${rows.waId}`;
      const before = contacts.get(key);
      contacts.set(key, { ...rows, profileName: rows.profileName ?? before?.profileName ?? null });
    }
    await whatsappRepository.recordContacts(trx, [...contacts.values()]);
    await whatsappRepository.recordInbound(
      trx,
      messages.flatMap(({ rows, outcome }) =>
        outcome.kind === 'stored'
          ? [
              {
                sendPhone: rows.sendPhone,
                wamid: rows.wamid,
                msgId: outcome.msgId,
                contextWamid: rows.contextWamid,
              },
            ]
          : [],
      ),
    );
  },
};

/** A message ready for the door: its key, and what its write needs. */
interface Prepared {
  msg: WaMessage;
  write: () => Promise<InboundOutcome>;
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
    /** The door every customer's message comes in by. */
    private readonly inbound: InboundWriter,
    private readonly media: MediaService,
    private readonly events: SeatEvents,
    private readonly log: InboundLog,
  ) {}

  /**
   * A delivery: each message and each status parsed and judged alone (one that does not fit is
   * refused, logged and counted, and the others still go in), the messages handed to the
   * inbound door together (one commit). Answers once every message has its fate; a failure of
   * the database throws (500: Meta delivers again, and what was stored is taken once).
   */
  async handle(number: WebhookNumber, payload: WaWebhook): Promise<void> {
    const refuse = (part: string, raw?: unknown) =>
      this.inbound.refuse('whatsapp', 'bad_shape', {
        account: number.send_phone,
        part,
        ...(raw && typeof raw === 'object' && 'id' in raw ? { id: String(raw.id) } : {}),
      });
    const envelope = waEnvelope.safeParse(payload);
    if (!envelope.success) return refuse('entry');
    if (envelope.data.object !== 'whatsapp_business_account') return;
    const parsed: { msg: WaMessage; profileName: string | null }[] = [];
    const statuses: WaStatus[] = [];
    for (const rawEntry of envelope.data.entry ?? []) {
      const entry = waEntry.safeParse(rawEntry);
      if (!entry.success) {
        refuse('entry');
        continue;
      }
      for (const rawChange of entry.data.changes ?? []) {
        const change = waChange.safeParse(rawChange);
        if (!change.success) {
          refuse('change');
          continue;
        }
        if (change.data.field !== 'messages' || !change.data.value) continue;
        const value = waValue.safeParse(change.data.value);
        if (!value.success) {
          refuse('value');
          continue;
        }
        // A change of another number (a shared app): not this account's.
        if (value.data.metadata?.phone_number_id !== number.phone_number_id) continue;
        const names = new Map<string, string>();
        for (const raw of listAt(value.data.contacts) ?? []) {
          const contact = waContact.safeParse(raw);
          if (contact.success && contact.data.profile?.name) {
            names.set(contact.data.wa_id, contact.data.profile.name);
          }
        }
        const messages = listAt(value.data.messages);
        if (!messages) refuse('messages');
        for (const raw of messages ?? []) {
          const msg = waMessage.safeParse(raw);
          if (!msg.success) {
            refuse('message', raw);
            continue;
          }
          parsed.push({ msg: msg.data, profileName: names.get(msg.data.from) ?? null });
        }
        const given = listAt(value.data.statuses);
        if (!given) refuse('statuses');
        for (const raw of given ?? []) {
          const status = waStatus.safeParse(raw);
          if (status.success) statuses.push(status.data);
          else refuse('status', raw);
        }
      }
    }
    // The delivery's wamids seen before: one read for all its messages, not one each.
    const wamids = parsed.filter(({ msg }) => msg.type !== 'reaction').map(({ msg }) => msg.id);
    const taken = wamids.length
      ? await inboundRepository.takenOf(this.db, 'whatsapp', number.send_phone, wamids)
      : new Set<string>();
    const prepared: Prepared[] = [];
    for (const { msg, profileName } of parsed) {
      const ready = await this.prepare(number, msg, profileName, taken);
      if (ready) prepared.push(ready);
    }
    // Together through the door: one commit for the delivery, each message judged alone.
    const fates = await Promise.allSettled(prepared.map((p) => p.write()));
    for (const status of statuses) await this.status(number, status);
    // A message the door refused by a check of its own (an AppError) has its fate (logged and
    // counted there); any other failure is the database's: Meta delivers again.
    const failed = fates.find(
      (f): f is PromiseRejectedResult => f.status === 'rejected' && !(f.reason instanceof AppError),
    );
    if (failed) throw failed.reason;
  }

  /**
   * A message made ready for the door (its media downloaded first: a slow file never holds the
   * database), or handled here (a reaction, a message seen before, no seat).
   */
  private async prepare(
    number: WebhookNumber,
    msg: WaMessage,
    profileName: string | null,
    /** The delivery's wamids taken before it came. */
    taken: ReadonlySet<string>,
  ): Promise<Prepared | null> {
    const key: InboundKey = {
      channel: 'whatsapp',
      sendPhone: number.send_phone,
      externalId: msg.id,
    };
    if (msg.type === 'reaction') {
      await this.reaction(number, msg, key);
      return null;
    }
    if (taken.has(msg.id)) return null;
    // The account's seat came with the number (read once per delivery).
    const seatId = number.seat_id;
    if (seatId === null) {
      this.inbound.refuse('whatsapp', 'no_seat', { account: number.send_phone, id: msg.id });
      return null;
    }
    const at = msg.timestamp ? Math.min(Number(msg.timestamp) * 1000, Date.now()) : Date.now();
    const content = await this.contentOf(number, seatId, msg);
    const customer = customerNumberOf(msg.from);
    const write = () =>
      this.inbound.write({
        channel: 'whatsapp',
        seatId,
        queueSeat: number.team_account_id !== null,
        key,
        sendPhone: number.send_phone,
        receiverPhone: customer,
        content: content.text,
        type: content.type,
        ...(content.mediaId ? { mediaId: content.mediaId } : {}),
        at,
        ...(profileName ? { customerName: profileName } : {}),
        // A reply names its quote by wamid (ours as delivered, or the customer's).
        ...(msg.context?.id ? { replyTo: { externalId: msg.context.id } } : {}),
        hook: channelRows(whatsappRows, {
          sendPhone: number.send_phone,
          waId: msg.from,
          profileName,
          at,
          wamid: msg.id,
          contextWamid: msg.context?.id ?? null,
        }),
      });
    return { msg, write };
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

  /**
   * What the operator sees of a message: text, or a stored media with its caption. A type
   * Parley does not show (system, unsupported, ...) goes to the door as it is, which refuses it
   * (receive rules); so does one with nothing to show.
   */
  private async contentOf(
    number: WhatsappNumberRow,
    seatId: number,
    msg: WaMessage,
  ): Promise<{ text: string; mediaId?: string; type: string }> {
    switch (msg.type) {
      case 'text':
        return { text: msg.text?.body ?? '', type: 'text' };
      case 'location':
        return { text: msg.location ? locationText(msg.location) : '', type: 'text' };
      case 'contacts':
        return { text: msg.contacts?.length ? contactsText(msg.contacts) : '', type: 'text' };
      case 'button':
        return { text: msg.button?.text ?? '', type: 'text' };
      case 'interactive': {
        const title = msg.interactive?.button_reply?.title ?? msg.interactive?.list_reply?.title;
        return { text: title ?? '', type: 'text' };
      }
      case 'image':
      case 'sticker':
      case 'audio':
      case 'video':
      case 'document': {
        const part = msg[msg.type];
        const shape = MEDIA_KINDS[msg.type]!;
        const caption = part?.caption ?? '';
        const fileName =
          (msg.type === 'document' ? msg.document?.filename : undefined) ?? shape.fallbackName;
        const stored = part?.id
          ? await this.download(number, seatId, part.id, shape.kind, fileName)
          : null;
        if (!stored) return { text: caption || `[${msg.type}]`, type: 'text' };
        return {
          text: caption,
          mediaId: stored.mediaId,
          type: stored.kind === shape.kind ? shape.type : 'file',
        };
      }
      default:
        return { text: '', type: msg.type };
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
