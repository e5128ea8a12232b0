import { expect } from 'vitest';
import { ERROR_CODES } from '@parley/protocol';
import { adminCall, createAdmin } from '../admin-helpers.js';
import { WhatsAppGraphServer, type GraphNumber } from '../whatsapp-graph-api-server.js';
import { deliverWebhook } from '../whatsapp-helpers.js';
import { type Kit } from './kit.js';

/** WhatsApp's customer: signed Meta webhooks, the local Graph API taking the sends. */
export function kit(): Kit {
  const graph = new WhatsAppGraphServer();
  const numbers = new Map<number, GraphNumber>();
  let waN = 0;
  return {
    async start() {
      await graph.start();
      return { whatsapp: { graphUrl: graph.url } };
    },
    stop: () => graph.stop(),
    async bind(t, seat) {
      const n = graph.addNumber();
      numbers.set(seat.seatId, n);
      await t.services.accounts.setChannel(seat.phones[0]!, {
        account_id: 1,
        channel: 'whatsapp',
        phone_number_id: n.phoneNumberId,
        waba_id: n.wabaId,
        access_token: n.token,
        app_secret: n.appSecret,
      });
    },
    async customerWrites(t, seat, text) {
      const n = numbers.get(seat.seatId)!;
      const waId = `35191${String(process.pid % 1000).padStart(3, '0')}${String(++waN).padStart(4, '0')}`;
      const res = await deliverWebhook(
        t,
        n,
        graph.inbound(n, { wa_id: waId, name: 'Olga' }, { type: 'text', text: { body: text } }),
      );
      expect(res.status, res.body).toBe(200);
      return `+${waId}`;
    },
    async customerReads(t, seat, customer) {
      const n = numbers.get(seat.seatId)!;
      const got = graph.sentTo(n.phoneNumberId, customer.slice(1));
      // The customer's phone reports each message read (a signed status webhook).
      for (const m of got) await deliverWebhook(t, n, graph.status(n, m.wamid, m.to, 'read'));
      return got.map((m) => (m.body.text as { body: string }).body);
    },
    readTick: 'read',
    // The console's profile read is Telegram's; WhatsApp names the chat (customer_name) only.
    profileName: null,
    // A token the Graph API does not take (error 190), through the administrator's console:
    // refused on access_token, nothing bound.
    async badCredentials(t, seat) {
      const n = graph.addNumber();
      graph.revokeToken(n.token);
      const admin = await createAdmin(t, `contract-admin-wa-${seat.seatId}`);
      const account = await t.services.accounts.require(seat.phones[0]!);
      return adminCall(
        t,
        '/v1/admin/accounts/setChannel',
        {
          account_id: account.id,
          channel: 'whatsapp',
          phone_number_id: n.phoneNumberId,
          waba_id: n.wabaId,
          access_token: n.token,
          app_secret: n.appSecret,
        },
        admin,
      );
    },
    refusedWith: ERROR_CODES.PARAMETER_ERROR,
  };
}
