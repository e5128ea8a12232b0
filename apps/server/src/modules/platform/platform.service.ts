import {
  ERROR_CODES,
  platformDeletion,
  platformMessage,
  platformReceipt,
  type MediaKind,
  type PlatformDeletion,
  type PlatformMessage,
  type PlatformReceipt,
} from '@parley/protocol';
import type { Db } from '../../db/database.js';
import { AppError, invalidField, notFound } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { inTransaction } from '../../lib/tx.js';
import { parseBody } from '../../lib/validate.js';
import type { SeatEvents } from '../../realtime/seat-events.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import type { MediaService } from '../media/media.service.js';
import { previewOf, toChatMessage } from '../messages/messages.presenter.js';
import { messagesRepository } from '../messages/messages.repository.js';
import type { MessagesService } from '../messages/messages.service.js';
import { sessionsRepository } from '../sessions/sessions.repository.js';
import { checkSignature, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './platform-signature.js';
import { platformRepository } from './platform.repository.js';

export type PlatformRequestKind = 'message' | 'receipt' | 'deletion';

/** A request as it came: the raw bytes are what the signature covers. */
export interface SignedRequest {
  body: Buffer;
  contentType: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

const refused = (reason: string) =>
  new AppError(ERROR_CODES.PERMISSION_FAILED, `Platform request refused: ${reason}`, { reason });

/**
 * The inbound side of the messaging platform: signed requests that bring customers' messages,
 * delivery receipts and customer-side deletions. Every request is checked (signature, age,
 * shape, account) before anything is stored; a message is stored once per platform id.
 */
export class PlatformService {
  constructor(
    private readonly db: Db,
    private readonly secret: string | null,
    private readonly messages: MessagesService,
    private readonly media: MediaService,
    private readonly events: SeatEvents,
  ) {}

  async handle(kind: PlatformRequestKind, req: SignedRequest) {
    if (!this.secret) throw refused('not_configured');
    const check = checkSignature(
      this.secret,
      req.headers[TIMESTAMP_HEADER],
      req.headers[SIGNATURE_HEADER],
      req.body,
    );
    if (check !== 'ok') throw refused(check === 'stale' ? 'stale_timestamp' : check);
    if (kind === 'message') {
      const { input, bytes } = await this.readMessage(req);
      return this.receiveMessage(input, bytes);
    }
    const json = parseJson(req.body);
    if (kind === 'receipt') return this.receipt(parseBody<PlatformReceipt>(platformReceipt, json));
    return this.deletion(parseBody<PlatformDeletion>(platformDeletion, json));
  }

  /** JSON (media as base64 in `media.data`) or multipart/form-data (fields + a `file` part). */
  private async readMessage(req: SignedRequest) {
    const type = (req.contentType ?? '').toLowerCase();
    if (type.startsWith('multipart/form-data')) {
      let form: FormData;
      try {
        form = await new Response(req.body, {
          headers: { 'content-type': req.contentType! },
        }).formData();
      } catch {
        throw invalidField('body', 'malformed multipart body');
      }
      const fields: Record<string, unknown> = {};
      let file: File | null = null;
      for (const [name, value] of form.entries()) {
        if (typeof value === 'string') fields[name] = value;
        else if (name === 'file') file = value;
      }
      if (fields.sent_at !== undefined) fields.sent_at = Number(fields.sent_at);
      const durationMs = fields.duration_ms === undefined ? undefined : Number(fields.duration_ms);
      delete fields.duration_ms;
      const input = parseBody<PlatformMessage>(platformMessage, fields, {
        phoneFormatFields: ['account', 'customer'],
      });
      const bytes = file
        ? { data: Buffer.from(await file.arrayBuffer()), fileName: file.name, durationMs }
        : null;
      return { input, bytes };
    }
    const input = parseBody<PlatformMessage>(platformMessage, parseJson(req.body), {
      phoneFormatFields: ['account', 'customer'],
    });
    let bytes = null;
    if (input.media) {
      if (!/^[A-Za-z0-9+/=\s_-]+$/.test(input.media.data)) {
        throw invalidField('media.data', 'not base64');
      }
      bytes = {
        data: Buffer.from(input.media.data, 'base64'),
        fileName: input.media.file_name,
        durationMs: input.media.duration_ms,
      };
    }
    return { input, bytes };
  }

  async receiveMessage(
    input: PlatformMessage,
    bytes: { data: Buffer; fileName?: string; durationMs?: number } | null,
  ) {
    const account = await accountsRepository.findByPhone(this.db, input.account);
    if (!account || account.seat_id === null) throw new AppError(ERROR_CODES.TARGET_NOT_FOUND);
    const seatId = account.seat_id;
    const seen = await platformRepository.findInbound(this.db, input.account, input.id);
    if (seen) return { msg_id: seen.msg_id, blocked: seen.msg_id === null, duplicate: true };
    if (input.type === 'text' && bytes) throw invalidField('media', 'a text message takes none');
    if (input.type !== 'text' && !bytes) throw invalidField('media', 'required');
    if (input.type === 'text' && !input.content.trim()) throw invalidField('content', 'required');

    let mediaId: string | undefined;
    if (bytes) {
      const kind: MediaKind = input.type === 'text' ? 'file' : input.type;
      const row = await this.media.storeBytes(seatId, bytes.data, {
        kind,
        fileName: bytes.fileName,
        durationMs: bytes.durationMs,
      });
      mediaId = row.media_id;
    }
    let result;
    try {
      result = await inTransaction(this.db, async (trx) => {
        const got = await this.messages.receive(
          {
            sendPhone: input.account,
            receiverPhone: input.customer,
            content: input.content,
            type: input.type,
            ...(mediaId ? { mediaId } : {}),
            ...(input.sent_at !== undefined ? { at: input.sent_at } : {}),
          },
          trx,
        );
        const msgId = 'blocked' in got ? null : got.message.msg_id;
        await platformRepository.recordInbound(trx, input.account, input.id, msgId);
        if (msgId !== null) await platformRepository.setExternalId(trx, msgId, input.id);
        return got;
      });
    } catch (err) {
      // The same id at the same time: the other request stored it.
      if (isUniqueViolation(err)) {
        const stored = await platformRepository.findInbound(this.db, input.account, input.id);
        if (stored) {
          return { msg_id: stored.msg_id, blocked: stored.msg_id === null, duplicate: true };
        }
      }
      throw err;
    }
    if ('blocked' in result) return { msg_id: null, blocked: true, duplicate: false };

    // The chat and message events went out with the transaction (MessagesService.receive).
    return { msg_id: result.message.msg_id, blocked: false, duplicate: false };
  }

  /** A delivery receipt of an operator's message on this account. */
  async receipt(input: PlatformReceipt) {
    const found = await platformRepository.messageWithChat(this.db, input.msg_id);
    if (!found || found.send_phone !== input.account || found.direction !== 'out') {
      throw notFound();
    }
    const changed = await platformRepository.advanceStatus(
      this.db,
      found.id,
      input.status,
      input.external_id ?? null,
    );
    if (changed) {
      await this.events.messageStatus(this.db, changed.seat_id, {
        session_id: changed.session_id,
        msg_id: changed.id,
        status: changed.status,
      });
    }
    return { msg_id: found.id, status: changed?.status ?? found.status };
  }

  /** The customer deleted a message they sent: retracted for the seat too. */
  async deletion(input: PlatformDeletion) {
    const seen = await platformRepository.findInbound(this.db, input.account, input.id);
    if (!seen || seen.msg_id === null) throw notFound();
    const message = await platformRepository.messageWithChat(this.db, seen.msg_id);
    if (!message) throw notFound();
    if (message.deleted_for_all === 1) return { msg_id: message.id };
    const row = await inTransaction(this.db, async (trx) => {
      await messagesRepository.deleteForAll(trx, message.id);
      const latest = await messagesRepository.latestShown(trx, message.session_id);
      await sessionsRepository.setLastMessage(trx, message.session_id, {
        last_direction: latest?.direction ?? null,
        last_type: latest?.type ?? null,
        last_preview: latest ? previewOf(latest) : null,
      });
      return trx
        .selectFrom('messages')
        .selectAll()
        .where('id', '=', message.id)
        .executeTakeFirstOrThrow();
    });
    if (row.deleted_for_me === 0) {
      await this.events.messageUpdated(this.db, row.seat_id, toChatMessage(row, this.media.urls));
    }
    await this.events.sessionUpdated(this.db, row.seat_id, row.session_id);
    return { msg_id: message.id };
  }
}

function parseJson(body: Buffer): unknown {
  const text = body.toString('utf8');
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw invalidField('body', 'malformed JSON');
  }
}
