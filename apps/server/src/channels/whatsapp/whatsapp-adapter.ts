import type { Readable } from 'node:stream';
import { assertNever, type MessageType } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { ChatRead } from '../../modules/messages/messages.service.js';
import type { ChannelAdapter, DeliveryResult, OutboundItem } from '../channel.js';
import { GraphApi, GraphApiError } from './graph-api.js';
import { waIdOf } from './whatsapp-inbound.js';
import type { WhatsappNumbersService } from './whatsapp-numbers.service.js';
import { whatsappRepository } from './whatsapp.repository.js';

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

/** The outbox's terms for a Graph API refusal (its retries and back-off are the outbox's). */
export function deliveryFailure(err: unknown): DeliveryResult & { ok: false } {
  if (err instanceof GraphApiError) {
    return {
      ok: false,
      retryable: err.retryable,
      error: `WhatsApp ${err.code}: ${err.graphMessage}`,
      // Past the 24-hour window: the console says so on the message (send a template).
      ...(err.code === 131047 ? { failReason: 'whatsapp_window' as const } : {}),
      // A rate limit: Meta asks to back off; a minute is its usual window.
      ...(err.code === 4 || err.code === 80007 || err.code === 130429
        ? { retryAfterMs: 60_000 }
        : {}),
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

  constructor(
    private readonly db: Db,
    private readonly graphUrl: string,
    readonly credentials: WhatsappNumbersService,
  ) {}

  /**
   * The operator opened the chat: its newest customer message is marked read on WhatsApp
   * (`status: "read"`), which shows the customer blue ticks on it and every earlier one.
   */
  async markRead(chat: ChatRead): Promise<void> {
    const number = await whatsappRepository.findByPhone(this.db, chat.sendPhone);
    if (!number) return;
    const wamid = await whatsappRepository.latestInbound(this.db, chat.sendPhone, chat.sessionId);
    if (!wamid) return;
    await new GraphApi(this.graphUrl, number.access_token).post(
      `${number.phone_number_id}/messages`,
      { messaging_product: 'whatsapp', status: 'read', message_id: wamid },
    );
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
      const sent = await api.post<{ messages?: Array<{ id?: string }> }>(
        `${number.phone_number_id}/messages`,
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
      // The token expired or was revoked: the account shows it (a message's own refusal, such
      // as 131047 outside the window, is the message's, not the number's).
      if (err instanceof GraphApiError && err.tokenInvalid) {
        await whatsappRepository.setState(
          this.db,
          number.send_phone,
          'token_invalid',
          err.message,
          Date.now(),
        );
      }
      return deliveryFailure(err);
    }
  }
}
