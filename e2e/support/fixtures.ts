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

export const test = base.extend<TestFixtures, WorkerFixtures>({
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
    await use(async () => {
      seatCounter += 1;
      const suffix = `${testInfo.workerIndex}${seatCounter}${randomDigits(6)}`;
      const seat: Seat = {
        account: `e2e_${suffix}`,
        password: `pw-${randomBytes(6).toString('hex')}`,
        nickname: `E2E ${suffix}`,
        phone: `+1555${randomDigits(8)}`,
      };
      await parley.cli(
        'seat:create',
        seat.account,
        '--password',
        seat.password,
        '--nickname',
        seat.nickname,
      );
      await parley.cli('account:add', seat.phone);
      await parley.cli('account:assign', seat.phone, seat.account);
      return seat;
    });
  },

  freshSeat: async ({ createSeat }, use) => {
    await use(await createSeat());
  },
});

export { expect };
