import type { Db } from '../db/database.js';
import type { PhoneAccountRow } from '../db/schema.js';
import { ERROR_CODES, ERROR_MESSAGES, type AccountChannelFields } from '@parley/protocol';
import type {
  AccountChannelStatus,
  ChannelCredentials,
} from '../modules/accounts/channel-credentials.js';
import { AppError } from '../lib/app-error.js';
import type { ChannelAdapter, ChannelName, Greeting, GreetingInput } from './channel.js';

/**
 * The adapter that delivers each channel's outbox items. A channel without one keeps its
 * messages as they are (status `sent`, nothing queued). Each channel's `mount` registers its
 * adapter.
 */
export class ChannelRegistry implements AccountChannelStatus {
  private readonly adapters = new Map<ChannelName, ChannelAdapter>();
  private readonly held = new Set<ChannelCredentials>();

  /**
   * A channel's credentials, known from its services' making (create), so the CLI, which
   * mounts no channel, binds and forgets them as the console does.
   */
  holdCredentials(credentials: ChannelCredentials): this {
    this.held.add(credentials);
    return this;
  }

  /** `as`: serve another channel with this adapter (the sandbox plays the platform). */
  register(adapter: ChannelAdapter, as: ChannelName = adapter.channel): this {
    this.adapters.set(as, adapter);
    return this;
  }

  get(channel: ChannelName): ChannelAdapter | undefined {
    return this.adapters.get(channel);
  }

  has(channel: ChannelName): boolean {
    return this.adapters.has(channel);
  }

  /** Whether the account's channel can open a chat with a customer who has not written. */
  async canOpenChat(db: Db, account: PhoneAccountRow, receiverPhone: string): Promise<boolean> {
    const adapter = this.adapters.get(account.channel);
    return adapter?.canOpenChat ? adapter.canOpenChat(db, account, receiverPhone) : true;
  }

  /**
   * addSession's greeting on the account's channel (ChannelAdapter.greeting); a channel
   * without its own takes the text, and has no templates (100001, reason `not_whatsapp`).
   */
  async greeting(db: Db, account: PhoneAccountRow, input: GreetingInput): Promise<Greeting> {
    const adapter = this.adapters.get(account.channel);
    if (adapter?.greeting) return adapter.greeting(db, account, input);
    if (input.template !== undefined || input.greeting === undefined) {
      throw new AppError(ERROR_CODES.PARAMETER_ERROR, `${ERROR_MESSAGES['100001']}: template`, {
        fields: [{ path: 'template', message: 'not_whatsapp' }],
        reason: 'not_whatsapp',
      });
    }
    return { content: input.greeting };
  }

  /** The credentials of every channel that has them (AccountsService binds and forgets them). */
  credentials(): ChannelCredentials[] {
    const all = new Set<ChannelCredentials>(this.held);
    for (const adapter of this.adapters.values())
      if (adapter.credentials) all.add(adapter.credentials);
    return [...all];
  }

  /** Each channel's fields of these accounts (the admin console's account list). */
  async accountFields(
    sendPhones: readonly string[],
    now: number,
  ): Promise<Map<string, Partial<AccountChannelFields>>> {
    const all = new Map<string, Partial<AccountChannelFields>>();
    if (sendPhones.length === 0) return all;
    for (const credentials of this.credentials()) {
      for (const [phone, fields] of await credentials.accountFields(sendPhones, now))
        all.set(phone, { ...all.get(phone), ...fields });
    }
    return all;
  }

  /** The channels with an adapter. */
  names(): ChannelName[] {
    return [...this.adapters.keys()];
  }
}
