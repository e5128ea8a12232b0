import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import { customerNumberOf } from '../src/channels/telegram/telegram-inbound.js';
import { createSeat } from './fixtures.js';
import { createTestDatabaseConfig, testAppOf, type TestApp } from './helper.js';
import { TelegramBotApiServer } from './telegram-bot-api-server.js';

let tg: TelegramBotApiServer;
let config: Config;
let cleanup: () => Promise<void>;
const apps: TestApp[] = [];
/** The instance still running after the first test. */
let live: TestApp;

async function instance(): Promise<TestApp> {
  const app = await buildApp(config);
  await app.ready();
  const t = testAppOf(app, config);
  apps.push(t);
  return t;
}

beforeAll(async () => {
  tg = await new TelegramBotApiServer().start();
  ({ config, cleanup } = await createTestDatabaseConfig({
    telegram: {
      apiUrl: tg.url,
      polling: true,
      pollTimeoutSeconds: 1,
      scanIntervalMs: 20,
      leaseMs: 4_000,
    },
  }));
});
afterAll(async () => {
  for (const t of apps) await t.app.close().catch(() => undefined);
  await tg?.stop();
  await cleanup?.();
});

describe('one poller per bot across instances', () => {
  it('two instances on one database: one polls the bot (no 409), the other takes over when it stops', async () => {
    const a = await instance();
    const b = await instance();
    const seat = await createSeat(a, 'tg-lease');
    const token = tg.createBot('parley_lease_bot');
    await a.services.telegramBots.bind(seat.phones[0]!, token);
    const user = { id: 4_242_424_242, first_name: 'Lev' };
    const customer = customerNumberOf(user.id);

    const chat = async () =>
      (
        await a.call(
          '/v1/seat/chat/getChatRecord',
          { send_phone: seat.phones[0]!, receiver_phone: customer, page_size: 50 },
          seat.token,
        )
      ).data?.list ?? [];

    for (let i = 1; i <= 5; i++) tg.pushMessage(token, user, { text: `message ${i}` });
    await vi.waitFor(async () => expect(await chat()).toHaveLength(5), {
      timeout: 15_000,
      interval: 25,
    });
    // Let both instances scan a few more times while the one poller waits on Telegram.
    const calls = tg.bot(token).getUpdatesCalls;
    await vi.waitFor(() => expect(tg.bot(token).getUpdatesCalls).toBeGreaterThan(calls + 2), {
      timeout: 15_000,
      interval: 25,
    });
    const pollers = [a, b].map((t) => t.app.parley.jobs.telegramPoller);
    expect(pollers.map((p) => p.polling).sort()).toEqual([0, 1]);
    const row = await a.db.selectFrom('telegram_bots').selectAll().executeTakeFirstOrThrow();
    const owner = pollers.find((p) => p.polling === 1)!;
    expect(row.lease_owner).toBe(owner.owner);
    expect(tg.bot(token).conflicts).toBe(0);

    // The polling instance stops: it frees the lease, and the other one takes the bot over.
    const [stopping, staying] = owner === pollers[0] ? [a, b] : [b, a];
    await stopping.app.close();
    tg.pushMessage(token, user, { text: 'after the hand-over' });
    await vi.waitFor(
      async () => {
        const list = (
          await staying.call(
            '/v1/seat/chat/getChatRecord',
            { send_phone: seat.phones[0]!, receiver_phone: customer, page_size: 50 },
            seat.token,
          )
        ).data.list;
        expect(list.map((m) => m.content)).toEqual([
          'message 1',
          'message 2',
          'message 3',
          'message 4',
          'message 5',
          'after the hand-over',
        ]);
      },
      { timeout: 15_000, interval: 25 },
    );
    expect(staying.app.parley.jobs.telegramPoller.polling).toBe(1);
    live = staying;
    expect(tg.bot(token).conflicts).toBe(0);
  });

  it('an expired lease of an instance that died is taken over', async () => {
    const a = live;
    const seat = await createSeat(a, 'tg-lease-dead');
    const token = tg.createBot('parley_dead_bot');
    await a.services.telegramBots.bind(seat.phones[0]!, token);
    // A crashed instance's lease, already run out.
    await a.db
      .updateTable('telegram_bots')
      .set({ lease_owner: 'dead-instance', lease_until: Date.now() - 1 })
      .where('send_phone', '=', seat.phones[0]!)
      .execute();
    const user = { id: 4_343_434_343, first_name: 'Olga' };
    tg.pushMessage(token, user, { text: 'anyone there?' });
    await vi.waitFor(
      async () => {
        const res = await a.call(
          '/v1/seat/chat/getChatRecord',
          { send_phone: seat.phones[0]!, receiver_phone: customerNumberOf(user.id), page_size: 5 },
          seat.token,
        );
        expect(res.data?.list.map((m) => m.content)).toEqual(['anyone there?']);
      },
      { timeout: 15_000, interval: 25 },
    );
    const row = await a.db
      .selectFrom('telegram_bots')
      .select('lease_owner')
      .where('send_phone', '=', seat.phones[0]!)
      .executeTakeFirstOrThrow();
    expect(row.lease_owner).toBe(a.app.parley.jobs.telegramPoller.owner);
  });
});
