import {
  ERROR_CODES,
  ERROR_MESSAGES,
  type CallRequest,
  type CallResponse,
  type WhatsappTemplateSend,
} from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { PhoneAccountRow } from '../../db/schema.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { inTransaction } from '../../lib/tx.js';
import type { MediaUrls } from '../../modules/media/media-urls.js';
import { toChatMessage } from '../../modules/messages/messages.presenter.js';
import { messagesRepository } from '../../modules/messages/messages.repository.js';
import type { MessagesService } from '../../modules/messages/messages.service.js';
import { firstFailure } from '../../modules/messages/send-rules.js';
import { sessionsRepository } from '../../modules/sessions/sessions.repository.js';
import type { Greeting, GreetingInput } from '../channel.js';
import type { WhatsappTemplatesService } from './whatsapp-templates.service.js';
import { templateMessage, type TemplateComponents } from './whatsapp-templates.js';
import { whatsappRepository } from './whatsapp.repository.js';

export type TemplateRefusal =
  'not_whatsapp' | 'template_unknown' | 'template_parameters' | 'whatsapp_template_required';

/** 100001 naming the field, with why in `data.reason` (the console words it). */
export function templateRefused(reason: TemplateRefusal, path: string) {
  return new AppError(ERROR_CODES.PARAMETER_ERROR, `${ERROR_MESSAGES['100001']}: ${path}`, {
    fields: [{ path, message: reason }],
    reason,
  });
}

/**
 * Operators' WhatsApp templates: checked against the number's approved list (the Graph API's,
 * as /v1/seat/wa/templates lists it), stored as an outgoing text message that reads as the
 * customer gets it, with the template kept beside it for the adapter to send.
 */
export class WhatsappTemplateSender {
  constructor(
    private readonly db: Db,
    private readonly windows: WhatsappTemplatesService,
    private readonly messages: MessagesService,
    private readonly urls: MediaUrls,
  ) {}

  /** The template's components and text, or 100001 (unknown template, values that do not fit). */
  private async prepare(
    sendPhone: string,
    send: WhatsappTemplateSend,
  ): Promise<{ components: TemplateComponents; text: string }> {
    const number = await whatsappRepository.findByPhone(this.db, sendPhone);
    if (!number) throw templateRefused('not_whatsapp', 'session_id');
    const list = await this.windows.templates(number);
    const template = list.find((t) => t.name === send.name && t.language === send.language);
    if (!template) throw templateRefused('template_unknown', 'template.name');
    const message = templateMessage(template, send);
    if (!message) {
      throw templateRefused('template_parameters', 'template');
    }
    return message;
  }

  /** What is kept beside the message: the adapter sends it as this template. */
  private record(send: WhatsappTemplateSend, components: TemplateComponents) {
    return (trx: Db, msgId: number) =>
      whatsappRepository.recordTemplateSend(trx, {
        msg_id: msgId,
        name: send.name,
        language: send.language,
        components: JSON.stringify(components),
      });
  }

  /** /v1/seat/wa/sendTemplate: stored once per client_msg_id, then through the outbox. */
  async send(
    seatId: number,
    input: CallRequest<'/v1/seat/wa/sendTemplate'>,
  ): Promise<CallResponse<'/v1/seat/wa/sendTemplate'>> {
    const chat = await sessionsRepository.findForSeat(this.db, seatId, input.session_id);
    if (!chat) throw notFound();
    const { context, channel, session } = await messagesRepository.findSendContext(
      this.db,
      seatId,
      chat.send_phone,
      chat.receiver_phone,
      input.client_msg_id,
    );
    const failure = firstFailure(context);
    // A retry answers the stored message, without asking the Graph API again.
    if (failure === 'replay') return this.replay(seatId, input.client_msg_id);
    if (failure) throw failure;
    if (channel !== 'whatsapp') throw templateRefused('not_whatsapp', 'session_id');
    const { components, text } = await this.prepare(chat.send_phone, input.template);
    try {
      const row = await inTransaction(this.db, async (trx) => {
        const message = await this.messages.writer.write(trx, {
          session: session!,
          channel,
          clientMsgId: input.client_msg_id,
          type: 'text',
          content: text,
          media: null,
          at: Date.now(),
        });
        await this.record(input.template, components)(trx, message.id);
        return message;
      });
      return toChatMessage(row, this.urls);
    } catch (err) {
      // The same id sent twice at once: the first insert won.
      if (isUniqueViolation(err)) return this.replay(seatId, input.client_msg_id);
      throw err;
    }
  }

  private async replay(seatId: number, clientMsgId: string) {
    const stored = await messagesRepository.findByClientId(this.db, seatId, clientMsgId);
    if (!stored) throw notFound();
    return toChatMessage(stored, this.urls);
  }

  /**
   * addSession's greeting on a WhatsApp account: a template (a new customer has no open
   * window, and WhatsApp accepts nothing else then); a plain text is refused.
   */
  async greeting(_db: Db, account: PhoneAccountRow, input: GreetingInput): Promise<Greeting> {
    if (!input.template) throw templateRefused('whatsapp_template_required', 'greeting');
    const { components, text } = await this.prepare(account.send_phone, input.template);
    return { content: text, record: this.record(input.template, components) };
  }
}
