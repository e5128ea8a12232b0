import type { ChannelView } from '../../lib/channel-view';
import { lazyComponent } from '../../lib/lazy-component';

/**
 * WhatsApp in the console (app/channels.ts lists it): its 24-hour window above the composer,
 * the template composer past it; in the admin console its number's state, its binding's
 * fields and the webhook settings to paste into Meta's. Each part's code is fetched when
 * first shown.
 */
export const whatsappView: ChannelView = {
  ComposerNotice: lazyComponent(
    async () => (await import('./components/whatsapp-window-notice')).WhatsappWindowNotice,
  ),
  PastWindowComposer: lazyComponent(
    async () => (await import('./components/past-window-composer')).PastWindowComposer,
  ),
};
