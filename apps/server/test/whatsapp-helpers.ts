import { expect, vi } from 'vitest';
import type { ChatMessage } from '@parley/protocol';
import { buildApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import { adminCall } from './admin-helpers.js';
import type { SeatFixture } from './fixtures.js';
import { createTestDatabaseConfig, testAppOf, type TestApp } from './helper.js';
import {
  hubSignature,
  type GraphNumber,
  type WhatsAppGraphServer,
} from './whatsapp-graph-api-server.js';

/** An app whose log lines are kept (the secrets must never be in them), at debug. */
export async function whatsappApp(
  graph: WhatsAppGraphServer,
  overrides: Partial<Config> = {},
): Promise<{ t: TestApp; lines: string[] }> {
  const lines: string[] = [];
  const { config, cleanup } = await createTestDatabaseConfig({
    logLevel: 'debug',
    logFormat: 'json',
    // The local Graph server's download URLs are its own origin: allowed by the explicit setting.
    whatsapp: { graphUrl: graph.url, mediaOrigins: [graph.url] },
    ...overrides,
  });
  const app = await buildApp(config, { logStream: { write: (line) => lines.push(line) } });
  await app.ready();
  return { t: testAppOf(app, config, cleanup), lines };
}

/** Binds the seat's first account to `number` through the admin console's call. */
export async function bindNumber(
  t: TestApp,
  adminToken: string,
  seat: SeatFixture,
  n: GraphNumber,
) {
  const account = await t.services.accounts.require(seat.phones[0]!);
  const res = await adminCall(
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
    adminToken,
  );
  expect(res.code, res.raw).toBe('000000');
  return account.id;
}

/** Meta's POST of a webhook to the number's callback URL, signed with its app secret. */
export async function deliverWebhook(
  t: TestApp,
  n: GraphNumber,
  payload: unknown,
  signature?: string,
) {
  const body = JSON.stringify(payload);
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/whatsapp/webhook/${n.phoneNumberId}`,
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': signature ?? hubSignature(n.appSecret, body),
    },
    payload: body,
  });
  return { status: res.statusCode, body: res.body };
}

export async function chatRecord(
  t: TestApp,
  seat: SeatFixture,
  customer: string,
): Promise<ChatMessage[]> {
  const res = await t.call(
    '/v1/seat/chat/getChatRecord',
    { send_phone: seat.phones[0]!, receiver_phone: customer, page_size: 50 },
    seat.token,
  );
  expect(res.code, res.raw).toBe('000000');
  return res.data.list;
}

export async function waitFor<T>(fn: () => Promise<T>): Promise<T> {
  return vi.waitFor(fn, { timeout: 15_000, interval: 25 });
}
