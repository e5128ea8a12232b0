import type { ChannelModule } from '../channel-module.js';
import { markChatRead, WhatsappAdapter } from './whatsapp-adapter.js';
import { WhatsappInbound } from './whatsapp-inbound.js';
import { WhatsappNumbersService } from './whatsapp-numbers.service.js';
import { whatsappRoutes } from './whatsapp.routes.js';
import { WhatsappTemplateSender } from './whatsapp-template-sender.js';
import { WhatsappTemplatesService } from './whatsapp-templates.service.js';
import { whatsappSettings } from './whatsapp.config.js';

/**
 * WhatsApp Business numbers on Meta's Cloud API (docs/channels/whatsapp.md): signed webhooks
 * in, the Graph API out, the binding checked with the Graph API, its status in the admin
 * console. Self-contained: everything it needs is built here.
 */
export interface WhatsappServices {
  /** Binding phone accounts to WhatsApp numbers (the console's setChannel). */
  whatsappNumbers: WhatsappNumbersService;
}

export const whatsappChannel: ChannelModule<WhatsappServices> = {
  name: 'whatsapp',
  async create({ db, config, services }) {
    const { graphUrl } = whatsappSettings(config);
    const whatsappNumbers = new WhatsappNumbersService(db, graphUrl, services.audit);
    // Known without a mount too: the CLI's account:channel forgets a number's binding.
    services.channels.holdCredentials(whatsappNumbers);
    return { whatsappNumbers };
  },
  async mount({ app, config, db, calls, adminCalls, services, own }) {
    const settings = whatsappSettings(config);
    const { graphUrl } = settings;
    const numbers = own.whatsappNumbers;
    const inbound = new WhatsappInbound(
      db,
      graphUrl,
      {
        hosts: settings.mediaHosts,
        trustedOrigins: settings.mediaOrigins,
      },
      services.messages,
      services.inbound,
      services.media,
      services.events,
      app.log,
    );
    await whatsappRoutes(app, db, inbound, config.rateLimit.platform);
    const adapter = new WhatsappAdapter(db, graphUrl, numbers, settings.messagesPerSecond);
    services.channels.register(adapter);
    const windows = new WhatsappTemplatesService(db, graphUrl);
    calls.authed('/v1/seat/wa/templates', (input, seat) =>
      windows.forAccount(seat.seatId, input.send_phone),
    );
    const templates = new WhatsappTemplateSender(
      db,
      windows,
      services.messages,
      services.media.urls,
    );
    calls.authed('/v1/seat/wa/sendTemplate', (input, seat) => templates.send(seat.seatId, input));
    // A new customer has no open window: addSession's greeting is a template.
    adapter.greeting = (...a) => templates.greeting(...a);
    // The console's view of the binding: the webhook URL on the server's public address
    // (PARLEY_PUBLIC_URL), else on the address the admin reached it by.
    adminCalls.authed('/v1/admin/accounts/whatsappStatus', async (input, _admin, request) => {
      const account = await services.accounts.require(input.account_id);
      const base = config.publicUrl ?? `${request.protocol}://${request.host}`;
      return numbers.status(account.send_phone, base);
    });
    return {};
  },
  // Opening a chat shows the customer blue ticks.
  async chatRead(chat, { db, config, log }) {
    try {
      await markChatRead(db, whatsappSettings(config).graphUrl, chat);
    } catch (err) {
      log.warn({ err: String(err), account: chat.sendPhone }, 'whatsapp read mark not sent');
    }
  },
};
