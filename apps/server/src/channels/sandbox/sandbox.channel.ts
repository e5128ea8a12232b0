import type { ChannelModule } from '../channel-module.js';
import type { PlatformServices } from '../platform/platform.channel.js';
import { SandboxAdapter } from './sandbox-adapter.js';
import { sandboxRoutes } from './sandbox.routes.js';
import { SandboxService, sandboxEnabled } from './sandbox.service.js';

export interface SandboxServices {
  /** The customer sandbox; null when off. */
  sandbox: SandboxService | null;
}

/** The built-in customer sandbox (when on): its page's calls, and the platform's part too when
 *  no platform is configured (created and mounted after the platform). */
export const sandboxChannel: ChannelModule<SandboxServices, object, PlatformServices> = {
  name: 'sandbox',
  async create({ db, config, services }, { platform }) {
    if (!(await sandboxEnabled(db, config))) return { sandbox: null };
    // The sandbox plays the platform too when no platform URL is configured.
    const served =
      config.platform.url && config.platform.secret
        ? (['sandbox'] as const)
        : (['sandbox', 'platform'] as const);
    // It signs its requests to the bridge; without a configured secret, with one of its own.
    const sandbox = new SandboxService(
      db,
      platform.signingSecret(),
      platform,
      services.media,
      served,
    );
    return { sandbox };
  },
  async mount({ app, config, services, own }) {
    if (!own.sandbox) return {};
    const largestMedia = Math.max(...Object.values(config.mediaMaxBytes));
    sandboxRoutes(app, own.sandbox, services.media, {
      bodyLimit: Math.ceil(largestMedia * 1.4) + 64 * 1024,
      perMinute: config.rateLimit.public,
    });
    const sandbox = new SandboxAdapter(own.sandbox);
    services.channels.register(sandbox);
    if (!services.channels.has('platform')) services.channels.register(sandbox, 'platform');
    return {};
  },
};
