import { randomUUID } from 'node:crypto';
import {
  sandboxSend,
  type SandboxAccount,
  type SandboxEntry,
  type SandboxSend,
} from '@parley/protocol';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { SandboxEntryRow } from '../../db/schema.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { ERROR_CODES } from '@parley/protocol';
import { parseBody } from '../../lib/validate.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import { isInlineMime } from '../media/media-sniff.js';
import type { MediaService } from '../media/media.service.js';
import { signedHeaders } from '../platform/platform-signature.js';
import type { PlatformRequestKind, PlatformService } from '../platform/platform.service.js';
import { toEntry } from './sandbox.presenter.js';
import { sandboxRepository } from './sandbox.repository.js';
import type { ChannelName } from '../../channels/channel.js';

/** On when asked (PARLEY_SANDBOX=1), or, left to `auto`, when the demo workspace is. */
export function sandboxEnabled(config: Config): boolean {
  if (config.sandbox !== 'auto') return config.sandbox === 'on';
  return config.demo === 'on' || (config.demo === 'auto' && config.databaseUrl === null);
}

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
  async chat(account: string, customer: string, visible: boolean): Promise<SandboxEntry[]> {
    await this.served(account);
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
    return rows.map(toEntry);
  }

  async send(body: unknown): Promise<SandboxEntry> {
    const input = parseBody<Required<Pick<SandboxSend, 'account' | 'customer'>> & SandboxSend>(
      sandboxSend,
      body,
      { phoneFormatFields: ['account', 'customer'] },
    );
    await this.served(input.account);
    const answer = (await this.bridge('message', {
      id: `sandbox-${randomUUID()}`,
      account: input.account,
      customer: input.customer,
      type: input.type,
      content: input.content,
      ...(input.media ? { media: input.media } : {}),
    })) as { msg_id: number | null; blocked: boolean };
    let mediaId: string | null = null;
    if (answer.msg_id !== null) {
      const row = await this.db
        .selectFrom('messages')
        .select('media_id')
        .where('id', '=', answer.msg_id)
        .executeTakeFirst();
      mediaId = row?.media_id ?? null;
    }
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
    });
    return toEntry(await sandboxRepository.findWithMedia(this.db, entry.id));
  }

  /** Delivery from the operator (the sandbox adapter); a repeat of the same message is one. */
  async deliver(item: {
    msgId: number;
    account: string;
    customer: string;
    type: SandboxEntryRow['type'];
    content: string;
    mediaId: string | null;
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

  /** An entry's media bytes (only media that passed through the sandbox). */
  async mediaOf(entryId: number) {
    const entry = await sandboxRepository.findById(this.db, entryId);
    if (!entry?.media_id || entry.deleted === 1) throw notFound();
    const account = await accountsRepository.findByPhone(this.db, entry.send_phone);
    if (!account?.seat_id) throw notFound();
    const stored = await this.media.stored(account.seat_id, entry.media_id);
    if (!stored) throw notFound();
    const inline = isInlineMime(stored.row.mime);
    return {
      // Like the seat's media: only what is safe to show inline is served as its type.
      contentType: inline ? stored.row.mime : 'application/octet-stream',
      inline,
      fileName: stored.row.file_name,
      stream: await stored.open(),
    };
  }
}
