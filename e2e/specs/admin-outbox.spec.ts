import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test as base, expect, type Seat } from '../support/fixtures';
import { startServer, type ParleyServer } from '../support/server';
import { apiLogin, call } from '../support/api';
import { customerPhone, uniqueText } from '../support/chat';
import { adminLogin, adminText } from '../support/admin';

/**
 * Issue 12: deliveries the platform refused show in the overview with their error, and the
 * administrator's retry sends them again. This file's server delivers to a local endpoint
 * standing in for the messaging platform, which refuses (400) until told otherwise.
 */
interface Platform {
  url: string;
  answer: number;
  received: number;
}

const test = base.extend<{ platform: Platform; server: ParleyServer }>({
  // eslint-disable-next-line no-empty-pattern
  platform: async ({}, use) => {
    const state = { url: '', answer: 400, received: 0 };
    const http: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        state.received += 1;
        res.writeHead(state.answer, { 'content-type': 'application/json' });
        res.end(JSON.stringify(state.answer === 200 ? { ok: true } : { error: 'refused by e2e' }));
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    state.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/webhook`;
    await use(state);
    await new Promise<void>((resolve) => http.close(() => resolve()));
  },
  server: async ({ platform }, use) => {
    const server = await startServer({
      PARLEY_PLATFORM_URL: platform.url,
      PARLEY_PLATFORM_SECRET: randomBytes(24).toString('hex'),
      PARLEY_OUTBOX_MAX_ATTEMPTS: '1',
    });
    try {
      await use(server);
    } finally {
      await server.stop();
    }
  },
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
});

async function newSeat(server: ParleyServer): Promise<Seat> {
  const tag = randomBytes(4).toString('hex');
  const seat = {
    account: `outbox_${tag}`,
    password: `pw-${tag}-long`,
    nickname: `Outbox ${tag}`,
    phone: `+1555${String(randomBytes(4).readUInt32BE()).padStart(10, '0').slice(0, 8)}`,
  };
  await server.cli('seat:create', seat.account, '--password', seat.password);
  await server.cli('account:add', seat.phone);
  await server.cli('account:assign', seat.phone, seat.account);
  return seat;
}

test('a refused delivery is listed with its error and sent again by the retry button', async ({
  page,
  server,
  platform,
}) => {
  const seat = await newSeat(server);
  const customer = customerPhone();
  await server.cli('chat:receive', seat.phone, customer, 'Hello?');
  await adminLogin(page);
  await expect(page.getByTestId('overview-totals')).toBeVisible();
  const seatRow = page.getByTestId(`overview-seat-${seat.account}`);
  await expect(seatRow.getByTestId('overview-seat-failed')).toHaveText('0');

  // The seat answers; the platform refuses it (400), and with one attempt allowed it fails.
  const { token } = await apiLogin(server.url, seat.account, seat.password);
  const text = uniqueText('Your parcel left today');
  await call(
    server.url,
    '/v1/seat/chat/message',
    {
      send_phone: seat.phone,
      receiver_phone: customer,
      type: 'text',
      content: text,
      client_msg_id: `e2e${randomBytes(6).toString('hex')}`,
    },
    token,
  );
  // Pushed: the failure counts without a reload.
  await expect(seatRow.getByTestId('overview-seat-failed')).toHaveText('1', { timeout: 20_000 });
  await expect(page.getByTestId('overview-failed')).not.toHaveText('0');

  await page.getByTestId('overview-tab-outbox').click();
  const row = page.getByTestId('outbox-table').locator('tbody tr').filter({ hasText: text });
  await expect(row.getByTestId('outbox-status')).toHaveText(
    adminText('en', 'outbox.status.failed'),
  );
  await expect(row.getByTestId('outbox-error')).toContainText('400');

  // The platform takes deliveries again; the retry sends it, and the failure is gone.
  platform.answer = 200;
  const before = platform.received;
  await row.getByTestId('outbox-retry').click();
  await expect(row).toHaveCount(0, { timeout: 20_000 });
  expect(platform.received).toBeGreaterThan(before);
  await page.getByTestId('overview-tab-seats').click();
  await expect(seatRow.getByTestId('overview-seat-failed')).toHaveText('0');
});
