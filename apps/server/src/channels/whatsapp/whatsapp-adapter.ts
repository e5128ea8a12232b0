import type { Readable } from 'node:stream';
import { assertNever, type MessageType } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { ChatRead } from '../../modules/messages/messages.service.js';
import type { ChannelAdapter, DeliveryResult, OutboundItem } from '../channel.js';
import { GraphApi, GraphApiError } from './graph-api.js';
import { markTokenRefused } from './number-state.js';
import { waIdOf } from './whatsapp-inbound.js';
import type { WhatsappNumbersService } from './whatsapp-numbers.service.js';
import { whatsappRepository } from './whatsapp.repository.js';

const sleep = (ms: number) =>
  ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve();

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The Cloud API's message type of a Parley media message. */
function waTypeOf(type: Exclude<MessageType, 'text'>): 'image' | 'audio' | 'video' | 'document' {
  switch (type) {
    case 'image':
      return 'image';
    case 'audio':
      return 'audio';
    case 'video':
      return 'video';
    case 'file':
      return 'document';
    default:
      return assertNever(type, 'message type');
  }
}

/**
 * Meta's rate limits and how long each asks to wait: the app's or the account's calls (4,
 * 80007: an hour's budget, a minute is the usual wait), the number's throughput (130429: per
 * second), the pair of the number and one customer (131056: about one message per 6 seconds).
 */
const RATE_LIMIT_PAUSE_MS: Record<number, number> = {
  4: 60_000,
  80007: 60_000,
  130429: 1_000,
  131056: 6_000,
};

/** The share of a number's throughput the pacing uses. */
const PACE_HEADROOM = 0.9;

/** A number's turns may be taken this far ahead before a delivery goes back to the outbox. */
const PACE_HORIZON_MS = 5_000;

/** The outbox's terms for a Graph API refusal (its retries and back-off are the outbox's). */
export function deliveryFailure(err: unknown): DeliveryResult & { ok: false } {
  if (err instanceof GraphApiError) {
    const pause = RATE_LIMIT_PAUSE_MS[err.code];
    return {
      ok: false,
      retryable: err.retryable,
      error: `WhatsApp ${err.code}: ${err.graphMessage}`,
      // A rate limit is "later", not a failure: retried after its pause, the attempt uncounted.
      ...(pause !== undefined ? { retryAfterMs: pause, throttled: true } : {}),
      // Past the 24-hour window: the console says so on the message (send a template).
      ...(err.code === 131047 ? { failReason: 'whatsapp_window' as const } : {}),
    };
  }
  const reason = err instanceof Error ? err.message : String(err);
  return { ok: false, retryable: true, error: `WhatsApp unreachable: ${reason}` };
}

/**
 * The 'whatsapp' channel: operators' messages through POST /{phone-number-id}/messages (media
 * uploaded with /{phone-number-id}/media first). WhatsApp cannot delete a message for everyone.
 */
export class WhatsappAdapter implements ChannelAdapter {
  readonly channel = 'whatsapp' as const;
  /** addSession's greeting as a template (set by whatsapp.channel.ts: the template sender's). */
  greeting?: ChannelAdapter['greeting'];

  /**
   * Between two messages of one number: its throughput (Meta's 80 per second by default) with
   * a tenth of headroom, since Meta counts them as they arrive, after the network's jitter.
   */
  private readonly intervalMs: number;
  /** The same as a count: messages of one number this instance sends in any second. */
  private readonly perSecond: number;
  /** When this instance sent each number's messages of the last second. */
  private readonly lastSecond = new Map<string, number[]>();

  constructor(
    private readonly db: Db,
    private readonly graphUrl: string,
    readonly credentials: WhatsappNumbersService,
    messagesPerSecond = 80,
  ) {
    this.intervalMs = Math.ceil(1000 / (messagesPerSecond * PACE_HEADROOM));
    this.perSecond = Math.max(1, Math.floor(messagesPerSecond * PACE_HEADROOM));
  }

  /**
   * Waits for the number's next sending slot (its throughput, shared by every instance through
   * the number's row); false when its turns are taken too far ahead (back to the outbox).
   */
  private async paced(sendPhone: string): Promise<boolean> {
    const now = Date.now();
    const slot = await whatsappRepository.reservePace(
      this.db,
      sendPhone,
      now,
      this.intervalMs,
      PACE_HORIZON_MS,
    );
    if (slot === null) return false;
    await sleep(slot - Date.now());
    // A stalled process wakes its waiting sends together: they still go no more than the
    // number's share in any second, counted as they actually leave.
    for (;;) {
      const at = Date.now();
      const sent = (this.lastSecond.get(sendPhone) ?? []).filter((t) => t > at - 1000);
      if (sent.length < this.perSecond) {
        sent.push(at);
        this.lastSecond.set(sendPhone, sent);
        return true;
      }
      await sleep(sent[0]! + 1000 - at);
    }
  }

  /**
   * The operator opened the chat: its newest customer message is marked read on WhatsApp
   * (`status: "read"`), which shows the customer blue ticks on it and every earlier one.
   */
  /** The customer's newest message marked read (blue ticks): markChatRead. */
  markRead(chat: ChatRead): Promise<void> {
    return markChatRead(this.db, this.graphUrl, chat);
  }

  async deliver(item: OutboundItem): Promise<DeliveryResult> {
    if (item.kind === 'delete') {
      return {
        ok: false,
        retryable: false,
        error: 'WhatsApp cannot delete a message for everyone',
      };
    }
    const number = await whatsappRepository.findByPhone(this.db, item.account.send_phone);
    if (!number) {
      return { ok: false, retryable: false, error: 'no WhatsApp number is bound to this account' };
    }
    const api = new GraphApi(this.graphUrl, number.access_token);
    const to = waIdOf(item.receiverPhone);
    try {
      let body: Record<string, unknown>;
      const template = await whatsappRepository.findTemplateSend(this.db, item.msgId);
      if (template) {
        body = {
          type: 'template',
          template: {
            name: template.name,
            language: { code: template.language },
            components: JSON.parse(template.components) as unknown,
          },
        };
      } else if (item.type === 'text' || !item.media) {
        body = { type: 'text', text: { body: item.content, preview_url: false } };
      } else {
        const waType = waTypeOf(item.type);
        const uploaded = await api.upload(number.phone_number_id, {
          bytes: await readAll(await item.media.open()),
          mime: item.media.mime,
          fileName: item.media.file_name,
        });
        const part: Record<string, unknown> = { id: uploaded.id };
        // WhatsApp shows no caption under a voice note or an audio file.
        if (item.content && waType !== 'audio') part.caption = item.content;
        if (waType === 'document') part.filename = item.media.file_name;
        body = { type: waType, [waType]: part };
      }
      if (!(await this.paced(number.send_phone))) {
        return {
          ok: false,
          retryable: true,
          throttled: true,
          retryAfterMs: PACE_HORIZON_MS,
          error: "WhatsApp: the number's throughput is taken for the next seconds",
        };
      }
      // A reply quotes its message on the customer's phone by the wamid it came or went with
      // (Cloud API `context.message_id`); one WhatsApp never had goes unquoted.
      const quoted = item.replyTo?.externalId;
      if (quoted) body.context = { message_id: quoted };
      const sent = await api.post<{ messages?: Array<{ id?: string }> }>(
        [number.phone_number_id, 'messages'],
        { messaging_product: 'whatsapp', recipient_type: 'individual', to, ...body },
      );
      const wamid = sent?.messages?.[0]?.id;
      if (!wamid) return { ok: false, retryable: true, error: 'WhatsApp answered no message id' };
      await whatsappRepository.recordMessage(this.db, {
        sendPhone: number.send_phone,
        wamid,
        msgId: item.msgId,
        direction: 'out',
      });
      if (number.state !== 'ok') {
        await whatsappRepository.setState(this.db, number.send_phone, 'ok', null, Date.now());
      }
      return { ok: true, externalId: wamid };
    } catch (err) {
      await markTokenRefused(this.db, number.send_phone, err);
      return deliveryFailure(err);
    }
  }
}

/**
 * An operator read a chat: its customer's newest message is marked read on WhatsApp (a chat of
 * an account with no number bound, or with no message from WhatsApp, is left alone).
 */
export async function markChatRead(db: Db, graphUrl: string, chat: ChatRead): Promise<void> {
  const number = await whatsappRepository.findByPhone(db, chat.sendPhone);
  if (!number) return;
  const wamid = await whatsappRepository.latestInbound(db, chat.sendPhone, chat.sessionId);
  if (!wamid) return;
  try {
    await new GraphApi(graphUrl, number.access_token).post([number.phone_number_id, 'messages'], {
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: wamid,
    });
  } catch (err) {
    // A refused token shows on the account whichever call met it first.
    await markTokenRefused(db, number.send_phone, err);
    throw err;
  }
}
