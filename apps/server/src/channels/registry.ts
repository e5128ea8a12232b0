import type { ChannelAdapter, ChannelName } from './channel.js';

/**
 * The adapter that delivers each channel's outbox items. A channel without one keeps its
 * messages as they are (status `sent`, nothing queued). To add a channel: implement
 * `ChannelAdapter` and `register` it in app.ts.
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

  /** The channels with an adapter. */
  names(): ChannelName[] {
    return [...this.adapters.keys()];
  }
}
