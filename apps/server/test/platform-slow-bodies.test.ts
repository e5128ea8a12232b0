import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS } from '@parley/protocol';
import { signedHeaders } from '../src/channels/platform/platform-signature.js';
import { addressKey } from '../src/channels/platform/unverified-budget.js';
import { loadConfig } from '../src/config.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { buildApp } from '../src/app.js';
import { createTestApp, createTestDatabaseConfig, testAppOf, type TestApp } from './helper.js';
import { SECRET } from './platform-helpers.js';

// Issue 34: four forged requests from four addresses declared 85, 85, 85 and 1 MB (the whole
// unverified bound) and sent a byte every 5 s; a genuine signed message got 503 five times out
// of five over 45 s. Now an unverified body must keep a minimum pace after a grace; one behind
// it loses its reservation and its connection, and its address is refused for a while. And a
// request refused before its body is read is answered while the body is drained, so a client
// that sends its whole body reads the answer instead of a reset. Real sockets, from several
// loopback addresses (127.0.0.x), to a listening server; the times scaled down by settings.

const MB = 1024 * 1024;

function platformConfig(extra: Record<string, number>) {
  return {
    secret: SECRET,
    url: null,
    timeoutMs: 5_000,
    maxAttempts: 3,
    retryBaseMs: 10,
    leaseMs: 5_000,
    unverifiedMaxBytes: 256 * MB,
    unverifiedPerAddressMaxBytes: 128 * MB,
    ...extra,
  };
}

const forgedHeaders = () => signedHeaders('not-the-secret', 'something else');

interface Trickle {
  /** Connections ended by the server with no answer (cut for their pace). */
  cut: number;
  /** Answers read on reconnecting: `${status} ${reason}`. */
  refusals: string[];
  stop(): Promise<void>;
}

/**
 * A forged request declaring `declared` bytes that sends one byte every `everyMs`, from
 * `localAddress`; when its connection ends it connects again, as an attacker would.
 */
function trickle(
  port: number,
  host: string,
  localAddress: string,
  declared: number,
  everyMs: number,
): Trickle {
  const state: Trickle & { stopped: boolean; socket: net.Socket | null; done: Promise<void> } = {
    cut: 0,
    refusals: [],
    stopped: false,
    socket: null,
    done: Promise.resolve(),
    async stop() {
      state.stopped = true;
      state.socket?.destroy();
      await state.done;
    },
  };
  const once = () =>
    new Promise<void>((resolve) => {
      const socket = net.connect({ host, port, localAddress });
      state.socket = socket;
      let answer = '';
      let timer: NodeJS.Timeout | null = null;
      socket.on('connect', () => {
        const head = [
          `POST ${PLATFORM_PATHS.message} HTTP/1.1`,
          `host: ${host}`,
          'content-type: application/octet-stream',
          `content-length: ${declared}`,
          ...Object.entries(forgedHeaders()).map(([k, v]) => `${k}: ${v}`),
          '',
          '',
        ].join('\r\n');
        socket.write(head);
        timer = setInterval(() => socket.write('a'), everyMs);
      });
      socket.on('data', (c: Buffer) => (answer += c.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        if (timer) clearInterval(timer);
        if (answer !== '') {
          const status = answer.slice(9, 12);
          const reason = /"reason":"([a-z_]+)"/.exec(answer)?.[1] ?? '';
          state.refusals.push(`${status} ${reason}`);
        } else if (!state.stopped) {
          // Ended by the server with no answer (not by the test's stop).
          state.cut++;
        }
        resolve();
      });
    });
  state.done = (async () => {
    while (!state.stopped) {
      await once();
      if (!state.stopped) await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return state;
}

describe('forged bodies cannot hold the door', () => {
  let t: TestApp;
  let port: number;
  let seat: SeatFixture;
  const GRACE_MS = 1_000;

  const logs: Array<{ msg?: string; unverified?: { key: string; received: number } }> = [];

  beforeAll(async () => {
    const { config, cleanup } = await createTestDatabaseConfig({
      platform: platformConfig({
        unverifiedMinBytesPerS: 64 * 1024,
        unverifiedGraceMs: GRACE_MS,
        unverifiedSlowBanMs: 60_000,
      }),
      logLevel: 'info',
      logFormat: 'json',
    });
    const app = await buildApp(config, {
      logStream: { write: (line: string) => void logs.push(JSON.parse(line) as never) },
    });
    t = testAppOf(app, config, cleanup);
    await t.app.listen({ port: 0, host: '::' });
    port = (t.app.server.address() as AddressInfo).port;
    seat = await createSeat(t, 'slow-seat', 1);
  });
  afterAll(async () => t?.close());

  /** A genuine signed message, tried again after each refusal's Retry-After. */
  async function genuine(n: number) {
    const body = JSON.stringify({
      id: `slow-${process.pid}-${n}`,
      account: seat.phones[0],
      customer: nextPhone('+4482'),
      type: 'text',
      content: `genuine ${n}`,
    });
    const first = Date.now();
    const refusals: string[] = [];
    for (;;) {
      const res = await fetch(`http://127.0.0.1:${port}${PLATFORM_PATHS.message}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signedHeaders(SECRET, body) },
        body,
      });
      const json = (await res.json()) as { code: string };
      if (res.status === 200) return { ms: Date.now() - first, code: json.code, refusals };
      expect([429, 503], JSON.stringify(json)).toContain(res.status);
      refusals.push(`${res.status}`);
      const after = Number(res.headers.get('retry-after'));
      expect(after).toBeGreaterThanOrEqual(1);
      expect(after).toBeLessThanOrEqual(5);
      await new Promise((r) => setTimeout(r, after * 1000));
    }
  }

  it('four trickling addresses (85, 85, 85, 1 MB) are cut; every genuine message is accepted within 5 s', async () => {
    const attackers = [
      trickle(port, '127.0.0.1', '127.0.0.2', 85 * MB, 300),
      trickle(port, '127.0.0.1', '127.0.0.3', 85 * MB, 300),
      trickle(port, '127.0.0.1', '127.0.0.4', 85 * MB, 300),
      trickle(port, '127.0.0.1', '127.0.0.5', 1 * MB, 300),
    ];
    // The four hold the whole bound before the first genuine message.
    await new Promise((r) => setTimeout(r, 200));
    const probe = await fetch(`http://127.0.0.1:${port}${PLATFORM_PATHS.message}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signedHeaders(SECRET, '{}') },
      body: '{}',
    });
    expect(probe.status).toBe(503);
    expect(await probe.json()).toMatchObject({
      code: '500005',
      data: { reason: 'unverified_bytes' },
    });
    // Told to come back when the first of the held bodies must have moved on: its grace.
    expect(probe.headers.get('retry-after')).toBe('1');

    // A genuine sender keeps sending, one message every 400 ms, for 6 s.
    const sent: Array<Promise<Awaited<ReturnType<typeof genuine>>>> = [];
    for (let i = 0; i < 15; i++) {
      sent.push(genuine(i));
      await new Promise((r) => setTimeout(r, 400));
    }
    const results = await Promise.all(sent);
    await Promise.all(attackers.map((a) => a.stop()));

    for (const r of results) expect(r.code).toBe('000000');
    const slowest = Math.max(...results.map((r) => r.ms));
    expect(slowest, JSON.stringify(results)).toBeLessThanOrEqual(5_000);
    // Each trickle was cut once, then its address was refused while it tried again.
    for (const a of attackers) {
      expect(a.cut).toBe(1);
      expect(a.refusals.length).toBeGreaterThanOrEqual(1);
      expect(new Set(a.refusals)).toEqual(new Set(['429 unverified_too_slow']));
    }
    // Each cut is said in the log, with the address's key and the bytes it had sent.
    const cuts = logs.filter((l) => l.msg === 'platform body below the minimum rate: cut');
    expect(cuts.map((l) => l.unverified!.key).sort()).toEqual([
      '127.0.0.2',
      '127.0.0.3',
      '127.0.0.4',
      '127.0.0.5',
    ]);
    // The messages are there, once each.
    const stored = await t.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('content', 'like', 'genuine %')
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(15);
  }, 60_000);

  it('an IPv6 sender is known by its /64: a slow body from ::1 bars ::1 afterwards', async () => {
    const slow = trickle(port, '::1', '::1', 2 * MB, 300);
    await new Promise((r) => setTimeout(r, GRACE_MS + 1_000));
    await slow.stop();
    expect(slow.cut).toBe(1);
    expect(slow.refusals.length).toBeGreaterThanOrEqual(1);
    expect(new Set(slow.refusals)).toEqual(new Set(['429 unverified_too_slow']));
    const cut = logs.find(
      (l) =>
        l.msg === 'platform body below the minimum rate: cut' && l.unverified!.key.includes(':'),
    );
    expect(cut?.unverified).toMatchObject({ key: '0:0:0:0::/64' });
  });

  it('keys: IPv4 as it is (also IPv4-mapped), IPv6 by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:aaaa::1%eth0')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('the pace is configured with documented defaults', () => {
    expect(loadConfig({}).platform).toMatchObject({
      unverifiedMinBytesPerS: 64 * 1024,
      unverifiedGraceMs: 10_000,
      unverifiedSlowBanMs: 60_000,
    });
    expect(
      loadConfig({
        PARLEY_PLATFORM_UNVERIFIED_MIN_KBPS: '8',
        PARLEY_PLATFORM_UNVERIFIED_GRACE_S: '2.5',
        PARLEY_PLATFORM_UNVERIFIED_SLOW_BAN_S: '30',
      }).platform,
    ).toMatchObject({
      unverifiedMinBytesPerS: 8 * 1024,
      unverifiedGraceMs: 2_500,
      unverifiedSlowBanMs: 30_000,
    });
    expect(() => loadConfig({ PARLEY_PLATFORM_UNVERIFIED_MIN_KBPS: '0' })).toThrow(
      /PARLEY_PLATFORM_UNVERIFIED_MIN_KBPS/,
    );
  });
});

describe('refusals are read', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      platform: platformConfig({
        unverifiedMaxBytes: 128 * MB,
        unverifiedPerAddressMaxBytes: 80 * MB,
        // The holders below keep their reservations for the whole test.
        unverifiedGraceMs: 120_000,
      }),
    });
    await t.app.listen({ port: 0, host: '0.0.0.0' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t?.close());

  interface Seen {
    status: number;
    headers: http.IncomingHttpHeaders;
    body: string;
    error: string | null;
  }

  /**
   * Requests that each send their whole body as fast as the socket takes it, from another
   * process (as a real client: its reads are not delayed by the server's work): what each read,
   * or the error it saw first.
   */
  async function sendWhole(
    requests: Array<{ localAddress: string; size: number }>,
  ): Promise<Seen[]> {
    const client = `
      const http = require('node:http');
      const [port, requests, headers] = JSON.parse(process.argv[1]);
      const one = ({ localAddress, size }) => new Promise((resolve) => {
        const req = http.request({ host: '127.0.0.1', port, localAddress, method: 'POST',
          path: ${JSON.stringify(PLATFORM_PATHS.message)},
          headers: { ...headers, 'content-length': String(size) }, agent: false });
        let seen = null;
        req.on('response', (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => (seen = { status: res.statusCode, headers: res.headers, body, error: null }));
          res.on('error', (e) => resolve({ status: 0, headers: {}, body, error: e.code ?? e.message }));
          res.on('close', () => resolve(seen ?? { status: 0, headers: {}, body, error: 'cut' }));
        });
        req.on('error', (e) => resolve(seen ?? { status: 0, headers: {}, body: '', error: e.code ?? e.message }));
        req.end(Buffer.alloc(size, 0x61));
      });
      Promise.all(requests.map(one)).then((r) => process.stdout.write(JSON.stringify(r)));
    `;
    const headers = { 'content-type': 'application/octet-stream', ...forgedHeaders() };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['-e', client, JSON.stringify([port, requests, headers])],
      { encoding: 'utf8', maxBuffer: 16 * MB },
    );
    return JSON.parse(stdout) as Seen[];
  }

  it('429, 503 and 100001 refusals reach a client that sends its whole body: no resets', async () => {
    // 127.0.0.6 holds its address's bound, 127.0.0.7 the rest of the process's.
    const holders = [
      trickle(port, '127.0.0.1', '127.0.0.6', 80 * MB, 1_000),
      trickle(port, '127.0.0.1', '127.0.0.7', 48 * MB, 1_000),
    ];
    await new Promise((r) => setTimeout(r, 200));
    const seen: Array<Seen & { want: number }> = [];
    for (let i = 0; i < 6; i++) {
      const round = await sendWhole([
        { localAddress: '127.0.0.6', size: 40 * MB },
        { localAddress: '127.0.0.6', size: 40 * MB },
        { localAddress: '127.0.0.8', size: 40 * MB },
        { localAddress: '127.0.0.9', size: 40 * MB },
        { localAddress: '127.0.0.10', size: 80 * MB + 1 },
      ]);
      const want = [429, 429, 503, 503, 400];
      seen.push(...round.map((r, k) => ({ ...r, want: want[k]! })));
    }
    await Promise.all(holders.map((h) => h.stop()));

    const errors = seen.filter((s) => s.error !== null);
    expect(errors.map((e) => e.error)).toEqual([]);
    for (const s of seen) {
      expect(s.status, `${seen.indexOf(s)} ${s.body}`).toBe(s.want);
      expect(s.headers.connection).toBe('close');
      const json = JSON.parse(s.body) as { code: string; data: { reason?: string } };
      if (s.want === 400) {
        expect(json.code).toBe('100001');
        continue;
      }
      expect(s.headers['retry-after']).toBe('5');
      expect(json).toMatchObject(
        s.want === 429
          ? { code: '500003', data: { reason: 'unverified_bytes_per_address' } }
          : { code: '500005', data: { reason: 'unverified_bytes' } },
      );
    }
  }, 180_000);
});
