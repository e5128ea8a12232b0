import { randomBytes } from 'node:crypto';
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
import { inTransaction } from '../../lib/tx.js';
import { parseJsonBody } from '../../lib/json-body.js';
import { parseBody } from '../../lib/validate.js';
import type { SeatEvents } from '../../modules/events/seat-events.js';
import type { MediaService } from '../../modules/media/media.service.js';
import type { MessagesService } from '../../modules/messages/messages.service.js';
import type { Readable } from 'node:stream';
import {
  checkSignature,
  checkSignatureHeaders,
  readSignedBody,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
} from './platform-signature.js';
import type { InboundWriter } from '../../modules/messages/inbound-writer.js';
import { deliveryRepository } from '../../modules/outbox/delivery.repository.js';
import { recordDeliveryStatus } from '../../modules/outbox/delivery-status.js';
import { inboundRepository, type InboundKey } from '../../modules/messages/inbound.repository.js';

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
    private secret: string | null,
    private readonly messages: MessagesService,
    private readonly media: MediaService,
    private readonly events: SeatEvents,
    /** Customers' messages, many webhooks' to one commit. */
    private readonly inbound: InboundWriter,
  ) {}

  /**
   * The secret requests to the bridge are signed with: the configured one, else one of its own
   * made now (the sandbox signs with it; no one else can).
   */
  signingSecret(): string {
    return (this.secret ??= randomBytes(32).toString('hex'));
  }

  /** Before the body is read: a secret configured, signature headers well formed and fresh. */
  admit(headers: SignedRequest['headers']): void {
    if (!this.secret) throw refused('not_configured');
    const check = checkSignatureHeaders(headers[TIMESTAMP_HEADER], headers[SIGNATURE_HEADER]);
    if (check !== 'ok') throw refused(check === 'stale' ? 'stale_timestamp' : check);
  }

  /** Reads an admitted request's body; only bytes whose signature holds are returned. */
  async readBody(
    source: Readable,
    headers: SignedRequest['headers'],
    limit: number,
  ): Promise<Buffer> {
    this.admit(headers);
    let body: Buffer | null;
    try {
      body = await readSignedBody(source, {
        secret: this.secret!,
        timestamp: headers[TIMESTAMP_HEADER] as string,
        signature: headers[SIGNATURE_HEADER] as string,
        limit,
        tempPath: () => this.media.tempPath(),
      });
    } catch (err) {
      // A large body waits on the media disk: full or read-only is 507 (the platform retries).
      throw this.media.health.failed(err) ?? err;
    }
    if (!body) throw refused('bad_signature');
    return body;
  }

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
      const { input, bytes } = await this.readMessage(req).catch((err: unknown) => {
        // Not a message of the platform's shape: its answer says why, the log and metric too.
        if (err instanceof AppError) this.inbound.refuse('platform', 'bad_shape');
        throw err;
      });
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
      if (fields.reply_to_msg_id !== undefined) {
        fields.reply_to_msg_id = Number(fields.reply_to_msg_id);
      }
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
    const key = inboundKey(input);
    // The account and the key already taken, in one round trip (issue 32: the statements per
    // message were most of an instance's work at 200 messages a second).
    const found = await inboundRepository.accountAndTaken(this.db, key);
    const account = found?.account;
    const detail = { account: input.account, id: input.id };
    if (!account || account.seat_id === null) {
      this.inbound.refuse('platform', 'no_seat', detail);
      throw new AppError(ERROR_CODES.TARGET_NOT_FOUND);
    }
    const seatId = account.seat_id;
    const seen = found.taken;
    if (seen) return { msg_id: seen.msg_id, blocked: seen.msg_id === null, duplicate: true };
    const misfit =
      input.type === 'text' && bytes
        ? invalidField('media', 'a text message takes none')
        : input.type !== 'text' && !bytes
          ? invalidField('media', 'required')
          : input.type === 'text' && !input.content.trim()
            ? invalidField('content', 'required')
            : null;
    if (misfit) {
      this.inbound.refuse('platform', 'bad_shape', detail);
      throw misfit;
    }

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
    const outcome = await this.inbound.write({
      channel: 'platform',
      seatId,
      queueSeat: found.queueSeat,
      key,
      sendPhone: input.account,
      receiverPhone: input.customer,
      type: input.type,
      content: input.content,
      ...(mediaId ? { mediaId } : {}),
      // Never in the future: a wrong clock must not pin a chat to the top for ever.
      at: input.sent_at !== undefined ? Math.min(input.sent_at, Date.now()) : Date.now(),
      ...(input.name ? { customerName: input.name } : {}),
      ...replyOf(input),
    });
    if (outcome.kind === 'taken') {
      // The same id at the same time: the other request stored it.
      const stored = await inboundRepository.find(this.db, key);
      return { msg_id: stored?.msg_id ?? null, blocked: !stored?.msg_id, duplicate: true };
    }
    if (outcome.kind === 'blocked') return { msg_id: null, blocked: true, duplicate: false };
    // Refused by the receive rules (logged and counted there).
    if (outcome.kind === 'refused') throw invalidField('content', outcome.reason);
    // The chat and message events went out with the batch's commit (InboundWriter).
    return { msg_id: outcome.msgId, blocked: false, duplicate: false };
  }

  /** A delivery receipt of an operator's message on this account. */
  async receipt(input: PlatformReceipt) {
    const found = await deliveryRepository.messageWithChat(this.db, input.msg_id);
    if (!found || found.send_phone !== input.account || found.direction !== 'out') {
      throw notFound();
    }
    const changed = await recordDeliveryStatus(this.db, this.events, {
      msgId: found.id,
      status: input.status,
      externalId: input.external_id ?? null,
    });
    return { msg_id: found.id, status: changed?.status ?? found.status };
  }

  /** The customer deleted a message they sent: retracted for the seat too. */
  async deletion(input: PlatformDeletion) {
    const seen = await inboundRepository.find(this.db, inboundKey(input));
    if (!seen || seen.msg_id === null) throw notFound();
    const message = await deliveryRepository.messageWithChat(this.db, seen.msg_id);
    if (!message) throw notFound();
    if (message.deleted_for_all === 1) return { msg_id: message.id };
    // The same retraction as the seat's own, minus telling the channel (it told us).
    await inTransaction(this.db, (trx) => this.messages.retract(trx, message, 'channel'));
    return { msg_id: message.id };
  }
}

/** A reply's quoted message: by Parley's id, else by the platform's. */
function replyOf(input: PlatformMessage) {
  if (input.reply_to_msg_id !== undefined) {
    return { replyTo: { msgId: input.reply_to_msg_id, field: 'reply_to_msg_id' } };
  }
  return input.reply_to !== undefined ? { replyTo: { externalId: input.reply_to } } : {};
}

/** The platform's message id, per account. */
function inboundKey(input: { account: string; id: string }): InboundKey {
  return { channel: 'platform', sendPhone: input.account, externalId: input.id };
}

function parseJson(body: Buffer): unknown {
  return parseJsonBody(body.toString('utf8'));
}
