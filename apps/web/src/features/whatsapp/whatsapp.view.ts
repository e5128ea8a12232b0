import type { ChannelView } from '../../lib/channel-view';
import { lazyComponent } from '../../lib/lazy-component';
import { templateRefusalText } from './template-refusal';

const admin = () => import('./components/whatsapp-admin');

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
  // A new chat is greeted with an approved template (the picker's code comes with the dialog's).
  templateGreeting: {
    Picker: lazyComponent(
      async () => (await import('./components/greeting-template-picker')).GreetingTemplatePicker,
    ),
    refusalText: templateRefusalText,
  },
  admin: {
    StatusBadge: lazyComponent(async () => (await admin()).WhatsappStatusBadge),
    BoundPanel: lazyComponent(async () => (await admin()).WhatsappBoundPanel),
    Credentials: lazyComponent(async () => (await admin()).WhatsappCredentials),
    credentialFields: ['phone_number_id', 'waba_id', 'access_token', 'app_secret'],
    // The owner still has to paste the webhook URL and verify token into Meta's settings.
    staysOpenOnBind: true,
    bindLabel: 'accounts.whatsapp.bind',
    unbindNote: 'accounts.whatsapp.unbindNote',
  },
};
