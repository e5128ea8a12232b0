import type { ChannelModule } from '../channel-module.js';
import { PlatformAdapter } from './platform-adapter.js';
import { platformRoutes } from './platform.routes.js';
import { PlatformService } from './platform.service.js';
import {
  UnverifiedBudget,
  UNVERIFIED_GRACE_MS_DEFAULT,
  UNVERIFIED_MAX_BYTES_DEFAULT,
  UNVERIFIED_MIN_BYTES_PER_S_DEFAULT,
  UNVERIFIED_PER_ADDRESS_MAX_BYTES_DEFAULT,
  UNVERIFIED_SLOW_BAN_MS_DEFAULT,
} from './unverified-budget.js';

export interface PlatformServices {
  /** The signed inbound API (messages, receipts, deletions). */
  platform: PlatformService;
}

/** The messaging platform: its signed API in (platform.routes), its HTTP API out. */
export const platformChannel: ChannelModule<PlatformServices> = {
  name: 'platform',
  async create({ db, config, services }) {
    return {
      platform: new PlatformService(
        db,
        config.platform.secret,
        services.messages,
        services.media,
        services.events,
        services.inbound,
      ),
    };
  },
  async mount({ app, config, services, own }) {
    // The bridge: a request carries a whole media file (base64 grows it by a third).
    const largestMedia = Math.max(...Object.values(config.mediaMaxBytes));
    await platformRoutes(
      app,
      own.platform,
      {
        messageBodyLimit: Math.ceil(largestMedia * 1.4) + 64 * 1024,
        perMinute: config.rateLimit.platform,
      },
      new UnverifiedBudget(
        {
          totalMax: config.platform.unverifiedMaxBytes ?? UNVERIFIED_MAX_BYTES_DEFAULT,
          perAddressMax:
            config.platform.unverifiedPerAddressMaxBytes ??
            UNVERIFIED_PER_ADDRESS_MAX_BYTES_DEFAULT,
          minBytesPerS:
            config.platform.unverifiedMinBytesPerS ?? UNVERIFIED_MIN_BYTES_PER_S_DEFAULT,
          graceMs: config.platform.unverifiedGraceMs ?? UNVERIFIED_GRACE_MS_DEFAULT,
          slowBanMs: config.platform.unverifiedSlowBanMs ?? UNVERIFIED_SLOW_BAN_MS_DEFAULT,
        },
        (cut) => app.log.warn({ unverified: cut }, 'platform body below the minimum rate: cut'),
      ),
    );
    if (config.platform.url && config.platform.secret) {
      services.channels.register(
        new PlatformAdapter({
          url: config.platform.url,
          secret: config.platform.secret,
          timeoutMs: config.platform.timeoutMs,
        }),
      );
    }
    return {};
  },
};
