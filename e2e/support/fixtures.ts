import { randomBytes } from 'node:crypto';
import { test as base, expect } from '@playwright/test';
import { startServer, type ParleyServer } from './server';

/** The demo workspace's seat (docs/server-contract.md). */
export const DEMO = { account: 'demo', password: 'parley-demo' } as const;

export interface Seat {
  account: string;
  password: string;
  nickname: string;
  /** The phone account registered and assigned to the seat. */
  phone: string;
}

interface WorkerFixtures {
  /** This worker's own seat service, data directory and demo workspace. */
  parley: ParleyServer;
}

interface TestFixtures {
  /** A seat created for this test alone through the admin CLI (no chats). */
  freshSeat: Seat;
  /** Creates another seat through the admin CLI. */
  createSeat: () => Promise<Seat>;
}

let seatCounter = 0;

function randomDigits(n: number): string {
  let out = '';
  const bytes = randomBytes(n);
  for (let i = 0; i < n; i += 1) out += String((bytes[i] ?? 0) % 10);
  return out;
}

/** Creates seats (with one assigned phone account) through the admin CLI of `server`. */
function seatFactory(server: ParleyServer, workerIndex: number): () => Promise<Seat> {
  return async () => {
    seatCounter += 1;
    const suffix = `${workerIndex}${seatCounter}${randomDigits(6)}`;
    const seat: Seat = {
      account: `e2e_${suffix}`,
      password: `pw-${randomBytes(6).toString('hex')}`,
      nickname: `E2E ${suffix}`,
      phone: `+1555${randomDigits(8)}`,
    };
    await server.cli(
      'seat:create',
      seat.account,
      '--password',
      seat.password,
      '--nickname',
      seat.nickname,
    );
    await server.cli('account:add', seat.phone);
    await server.cli('account:assign', seat.phone, seat.account);
    return seat;
  };
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  // The console runs under the server's Content-Security-Policy: any violation a page reports
  // (a blocked script, style, image, media or connection) fails the test.
  context: async ({ context }, use) => {
    const violations: string[] = [];
    context.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await use(context);
    expect(violations, 'Content-Security-Policy violations').toEqual([]);
  },

  parley: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer();
      try {
        await use(server);
      } finally {
        await server.stop();
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],

  baseURL: async ({ parley }, use) => {
    await use(parley.url);
  },

  createSeat: async ({ parley }, use, testInfo) => {
    await use(seatFactory(parley, testInfo.workerIndex));
  },

  freshSeat: async ({ createSeat }, use) => {
    await use(await createSeat());
  },
});

/**
 * For specs that stop and restart the seat service: each test gets its own server (same port
 * and data directory across `halt()` / `resume()`), and baseURL, createSeat and freshSeat use
 * it instead of the worker's.
 */
export const restartableTest = test.extend<{ server: ParleyServer }>({
  // eslint-disable-next-line no-empty-pattern
  server: async ({}, use) => {
    const server = await startServer();
    try {
      await use(server);
    } finally {
      await server.stop();
    }
  },
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
  createSeat: async ({ server }, use, testInfo) => {
    await use(seatFactory(server, testInfo.workerIndex));
  },
});

export { expect };
