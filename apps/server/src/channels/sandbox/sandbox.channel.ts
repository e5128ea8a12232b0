import type { ChannelModule } from '../channel-module.js';
import { SandboxAdapter } from './sandbox-adapter.js';
import { sandboxRoutes } from './sandbox.routes.js';

/** The built-in customer sandbox (when on): its page's calls, and the platform's part too when
 *  no platform is configured (mounted after the platform). */
export const sandboxChannel: ChannelModule = {
  name: 'sandbox',
  async mount({ app, config, services }) {
    if (!services.sandbox) return {};
    const largestMedia = Math.max(...Object.values(config.mediaMaxBytes));
    sandboxRoutes(app, services.sandbox, services.media, {
      bodyLimit: Math.ceil(largestMedia * 1.4) + 64 * 1024,
      perMinute: config.rateLimit.public,
    });
    const sandbox = new SandboxAdapter(services.sandbox);
    services.channels.register(sandbox);
    if (!services.channels.has('platform')) services.channels.register(sandbox, 'platform');
    return {};
  },
};
