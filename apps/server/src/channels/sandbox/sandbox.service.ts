import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  ERROR_CODES,
  SANDBOX_KEY_HEADER,
  SANDBOX_KEY_PATTERN,
  sandboxSend,
  type SandboxAccount,
  type SandboxEntry,
  type SandboxSend,
} from '@parley/protocol';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { SandboxEntryRow } from '../../db/schema.js';
import { AppError, invalidField, notFound } from '../../lib/app-error.js';
import { parseBody } from '../../lib/validate.js';
import { demoWorkspaceLoaded } from '../../demo/demo-mark.js';
import { accountsRepository } from '../../modules/accounts/accounts.repository.js';
import { mediaRepository } from '../../modules/media/media.repository.js';
import {
  MEDIA_ID,
  refuseUnless,
  signedQuery,
  type MediaService,
  type ServedMedia,
} from '../../modules/media/media.service.js';
import { signedHeaders } from '../platform/platform-signature.js';
import type { PlatformRequestKind, PlatformService } from '../platform/platform.service.js';
import { messagesRepository } from '../../modules/messages/messages.repository.js';
import { SANDBOX_SCOPE, toEntry } from './sandbox.presenter.js';
import { sandboxRepository } from './sandbox.repository.js';
import type { ChannelName } from '../channel.js';

/**
 * On when asked (PARLEY_SANDBOX=on), or, left to `auto`, when the demo workspace was loaded
 * into this database (its mark, demo/demo-mark.ts): anyone who reaches the server can play a
 * customer, so never on a database of real seats only.
 */
export async function sandboxEnabled(db: Db, config: Config): Promise<boolean> {
  if (config.sandbox !== 'auto') return config.sandbox === 'on';
  return demoWorkspaceLoaded(db);
}

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

const CHAT_LIMIT = 200;

/**
 * The customer sandbox: plays the customer of a chat. What the customer sends goes through
 * the platform bridge (signed here, like a platform would); what the operator sends arrives
 * through the sandbox channel adapter into `sandbox_entries`.
 */
export class SandboxService {
  constructor(
    private readonly db: Db,
    private readonly secret: string,
    private readonly platform: PlatformService,
    private readonly media: MediaService,
    /** The channels the sandbox adapter serves (its accounts are the ones offered). */
    private readonly channels: readonly ChannelName[],
  ) {}

  /** A request to the bridge, signed with the shared secret: the same path as the platform's. */
  private bridge(kind: PlatformRequestKind, payload: unknown) {
    const body = Buffer.from(JSON.stringify(payload));
    return this.platform.handle(kind, {
      body,
      contentType: 'application/json',
      headers: signedHeaders(this.secret, body),
    });
  }

  /** Only the accounts the sandbox serves may be played with (not a Telegram bot's). */
  private async served(account: string): Promise<void> {
    const row = await accountsRepository.findByPhone(this.db, account);
    if (!row || row.seat_id === null || !this.channels.includes(row.channel)) {
      throw new AppError(ERROR_CODES.TARGET_NOT_FOUND);
    }
  }

  /** The browser key is there and well formed (checked before a send's body is read). */
  checkKey(key: unknown): string {
    if (typeof key !== 'string' || !SANDBOX_KEY_PATTERN.test(key)) {
      throw invalidField(SANDBOX_KEY_HEADER, 'the browser key: 22 to 128 URL-safe characters');
    }
    return key;
  }

  /**
   * The customer is this browser's: a customer number of an account is bound to the first
   * browser key that uses it (a demo customer no browser played yet included); another key is
   * refused (400003), so no one reads the operator's replies to a number they know.
   */
  private async claim(account: string, customer: string, key: unknown): Promise<void> {
    const hash = hashKey(this.checkKey(key));
    const held = await sandboxRepository.claim(this.db, account, customer, hash, Date.now());
    if (!timingSafeEqual(Buffer.from(held), Buffer.from(hash))) {
      throw new AppError(ERROR_CODES.PERMISSION_FAILED, undefined, { reason: 'customer_taken' });
    }
  }

  async accounts(): Promise<SandboxAccount[]> {
    const rows = await accountsRepository.listAll(this.db);
    return rows
      .filter((r) => r.seat_account !== null && this.channels.includes(r.channel))
      .map((r) => ({ send_phone: r.send_phone, label: r.label }));
  }

  /**
   * The chat as the customer sees it. Fetching it is the customer's device receiving: the
   * operator's new messages are receipted `delivered`, and `read` when the page is in view.
   */
  async chat(
    account: string,
    customer: string,
    visible: boolean,
    key: unknown,
  ): Promise<SandboxEntry[]> {
    await this.served(account);
    await this.claim(account, customer, key);
    const rows = await sandboxRepository.chat(this.db, account, customer, CHAT_LIMIT);
    for (const row of rows) {
      if (row.direction !== 'out' || row.deleted === 1 || row.msg_id === null) continue;
      if (row.seen === 0 && (await sandboxRepository.markSeen(this.db, row.id, 0, 1))) {
        await this.receipt(account, row.msg_id, 'delivered');
        row.seen = 1;
      }
      if (visible && row.seen === 1 && (await sandboxRepository.markSeen(this.db, row.id, 1, 2))) {
        await this.receipt(account, row.msg_id, 'read');
      }
    }
    return rows.map((row) => toEntry(row, this.media.urls));
  }

  async send(body: unknown, key: unknown): Promise<SandboxEntry> {
    const input = parseBody<Required<Pick<SandboxSend, 'account' | 'customer'>> & SandboxSend>(
      sandboxSend,
      body,
      { phoneFormatFields: ['account', 'customer'] },
    );
    await this.served(input.account);
    await this.claim(input.account, input.customer, key);
    // A reply quotes an entry of this customer's chat that carries a message (else 100001).
    const quoted =
      input.reply_to === undefined
        ? null
        : await sandboxRepository.findInChat(
            this.db,
            input.account,
            input.customer,
            input.reply_to,
          );
    if (input.reply_to !== undefined && !quoted) {
      throw invalidField('reply_to', 'not a message of this chat');
    }
    const answer = (await this.bridge('message', {
      id: `sandbox-${randomUUID()}`,
      account: input.account,
      customer: input.customer,
      ...(input.name ? { name: input.name } : {}),
      type: input.type,
      content: input.content,
      ...(input.media ? { media: input.media } : {}),
      ...(quoted ? { reply_to_msg_id: quoted.msg_id } : {}),
    })) as { msg_id: number | null; blocked: boolean };
    const mediaId =
      answer.msg_id === null ? null : await messagesRepository.mediaIdOf(this.db, answer.msg_id);
    const entry = await sandboxRepository.insert(this.db, {
      send_phone: input.account,
      receiver_phone: input.customer,
      direction: 'in',
      msg_id: answer.msg_id,
      type: input.type ?? 'text',
      content: input.content ?? '',
      media_id: mediaId,
      blocked: answer.blocked ? 1 : 0,
      created_at: Date.now(),
      reply_to_msg_id: quoted?.msg_id ?? null,
    });
    return toEntry(await sandboxRepository.findWithMedia(this.db, entry.id), this.media.urls);
  }

  /** Delivery from the operator (the sandbox adapter); a repeat of the same message is one. */
  async deliver(item: {
    msgId: number;
    account: string;
    customer: string;
    type: SandboxEntryRow['type'];
    content: string;
    mediaId: string | null;
    /** A reply: Parley's id of the quoted message. */
    replyToMsgId?: number | null;
  }): Promise<SandboxEntryRow> {
    const existing = await sandboxRepository.findDelivered(this.db, item.msgId);
    if (existing) return existing;
    const row = await sandboxRepository.insert(this.db, {
      send_phone: item.account,
      receiver_phone: item.customer,
      direction: 'out',
      msg_id: item.msgId,
      type: item.type,
      content: item.content,
      media_id: item.mediaId,
      created_at: Date.now(),
      reply_to_msg_id: item.replyToMsgId ?? null,
    });
    // Stored on the platform's side: 'delivered' comes once the customer's page fetches it.
    return row;
  }

  async retract(msgId: number): Promise<void> {
    await sandboxRepository.markDeleted(this.db, 'out', msgId);
  }

  private async receipt(account: string, msgId: number, status: 'delivered' | 'read') {
    try {
      await this.bridge('receipt', { account, msg_id: msgId, status });
    } catch (err) {
      // The message may be gone meanwhile (its chat deleted): nothing to tell.
      if (!(err instanceof AppError && err.code === ERROR_CODES.DATA_NOT_FOUND)) throw err;
    }
  }

  /**
   * GET /v1/sandbox/media/{media_id}?entry&exp&sig: the URL must be one the sandbox signed
   * for this entry and media, not expired (else 400003); the entry must still show the media
   * (else 400001). Served like the seat's media (media-reply.ts).
   */
  async openMedia(
    mediaId: string,
    query: { entry?: unknown; exp?: unknown; sig?: unknown },
  ): Promise<ServedMedia> {
    const { exp, sig } = signedQuery(query);
    const { entry } = query;
    if (typeof entry !== 'string' || !/^[1-9][0-9]{0,15}$/.test(entry)) {
      throw new AppError(ERROR_CODES.PERMISSION_FAILED, undefined, { reason: 'unsigned' });
    }
    const entryId = Number(entry);
    refuseUnless(this.media.urls.checkFor(SANDBOX_SCOPE, { holder: entryId, mediaId, exp, sig }));
    if (!MEDIA_ID.test(mediaId)) throw notFound();
    const row = await sandboxRepository.findById(this.db, entryId);
    if (!row || row.media_id !== mediaId || row.deleted === 1) throw notFound();
    const media = await mediaRepository.findById(this.db, mediaId);
    if (!media) throw notFound();
    return this.media.serving(media, 'original');
  }
}
