import type { Db } from '../db/database.js';
import type { PhoneAccountRow } from '../db/schema.js';
import type { ChannelCredentials } from '../modules/accounts/channel-credentials.js';
import type { ChannelAdapter, ChannelName } from './channel.js';

/**
 * The adapter that delivers each channel's outbox items. A channel without one keeps its
 * messages as they are (status `sent`, nothing queued). Each channel's `mount` registers its
 * adapter.
 */
export class ChannelRegistry {
  private readonly adapters = new Map<ChannelName, ChannelAdapter>();

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

  /** The credentials of every channel that has them (AccountsService binds and forgets them). */
  credentials(): ChannelCredentials[] {
    const all = new Set<ChannelCredentials>();
    for (const adapter of this.adapters.values())
      if (adapter.credentials) all.add(adapter.credentials);
    return [...all];
  }

  /** The channels with an adapter. */
  names(): ChannelName[] {
    return [...this.adapters.keys()];
  }
}
