import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, seatWithChat, sendText, startServer, type ServerProcess } from './server-process.js';
import { resumeLoad } from './resume-load.js';

/**
 * Issue 32 across instances: two built servers on one PostgreSQL database and one Redis (as
 * test/instances.test.ts runs them); each resume lands on the other instance, as behind a
 * balancer. The PostgreSQL project only.
 */
const REDIS_URL = process.env.PARLEY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const adminUrl = process.env.PARLEY_TEST_DATABASE_URL!;
const dbName = `parley_resume_${randomBytes(4).toString('hex')}`;
const databaseUrl = adminUrl.replace(/\/[^/]*$/, `/${dbName}`);
const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-resume-'));
const env = {
  DATABASE_URL: databaseUrl,
  REDIS_URL,
  PARLEY_DATA_DIR: dataDir,
  PARLEY_DEMO: 'off',
  PARLEY_WS_HEARTBEAT_MS: '1000',
};

const servers: ServerProcess[] = [];

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  servers.push(...(await Promise.all([startServer(env), startServer(env)])));
}, 90_000);

afterAll(async () => {
  const codes = await Promise.all(servers.map((s) => s.stop()));
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
  expect(codes).toEqual(servers.map(() => 0));
});

describe('resume across two instances (issue 32)', () => {
  it('consoles that resume on the other instance while both take sends miss nothing, each event once, in order', async () => {
    const [a, b] = servers.map((s) => s.base) as [string, string];
    const phone = '+15550132001';
    const first = await seatWithChat(env, a, 'resume-two', phone, '+447700932000');
    // Four more chats of the seat, one per sender.
    const customers = [first.customer];
    for (let i = 1; i < 4; i++) {
      const customer = `+44770093200${i}`;
      const added = await post(
        a,
        '/v1/seat/chat/addSession',
        {
          send_phone: phone,
          receiver_phone: customer,
          greeting: 'Hello',
          client_msg_id: `resume-two-add-${i}`,
        },
        first.token,
      );
      expect(added.code, JSON.stringify(added)).toBe('000000');
      customers.push(customer);
    }
    const result = await resumeLoad({
      bases: [a, b],
      token: first.token,
      senders: 4,
      consoles: 10,
      minResumes: 100,
      minMs: 3_000,
      maxMs: 45_000,
      async send(s, n) {
        // Each sender writes through both instances in turn.
        const answer = await sendText(
          n % 2 === 0 ? a : b,
          { token: first.token, phone, customer: customers[s]! },
          `sender ${s} #${n}`,
          `resume-two-${s}-${n}`,
        );
        if (answer.code !== '000000') throw new Error(JSON.stringify(answer));
      },
    });
    console.log(`resume load (two instances + Redis): ${JSON.stringify(result)}`);
    expect(result.resumes).toBeGreaterThanOrEqual(100);
    expect(result.events).toBeGreaterThan(100);
    expect(result).toMatchObject({ missed: 0, doubled: 0, outOfOrder: 0, resets: 0 });
  }, 120_000);
});
