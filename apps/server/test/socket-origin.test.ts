import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ADMIN_REALTIME_PATH, REALTIME_PATH } from '@parley/protocol';
import { ConfigError, loadConfig } from '../src/config.js';
import { createAdmin } from './admin-helpers.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

// A page of another site must not open a push socket of ours (a browser sends its Origin on
// every WebSocket and the server alone can refuse): only the server's own origin and those
// configured in PARLEY_ALLOWED_ORIGINS. Programs send no Origin and are let through.

const CONFIGURED = 'https://chat.example.com';

let t: TestApp;
let host: string;
let seat: SeatFixture;
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp({
    realtime: {
      redisUrl: null,
      retentionHours: 24,
      heartbeatMs: 600_000,
      pollMs: 100,
      allowedOrigins: [CONFIGURED],
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  host = `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  seat = await createSeat(t, 'origin-seat');
  adminToken = await createAdmin(t, 'origin-admin');
});
afterAll(async () => t?.close());

type Outcome = { opened: true; first: unknown } | { opened: false; status: number; body: string };

/** Opens a socket with `origin` (none when undefined) and says hello; what came back. */
function open(path: string, origin: string | undefined, token: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${host}${path}`, origin === undefined ? {} : { origin });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ opened: false, status: res.statusCode ?? 0, body }));
    });
    ws.once('open', () => ws.send(JSON.stringify({ token })));
    ws.once('message', (raw) => {
      resolve({ opened: true, first: JSON.parse(String(raw)) });
      ws.close();
    });
    ws.once('error', (err) => {
      if (!ws.listeners('unexpected-response').length) reject(err);
    });
  });
}

const sockets = () => [
  { name: 'seat', path: REALTIME_PATH, token: seat.token },
  { name: 'admin', path: ADMIN_REALTIME_PATH, token: adminToken },
];

describe('push sockets check Origin', () => {
  it('the server’s own origin is accepted (seat and administrator sockets)', async () => {
    for (const s of sockets()) {
      const res = await open(s.path, `http://${host}`, s.token);
      expect(res, s.name).toMatchObject({ opened: true });
      expect((res as { first: { kind: string } }).first.kind, s.name).not.toBe('error');
    }
  });

  it('a configured origin is accepted', async () => {
    for (const s of sockets()) {
      expect(await open(s.path, CONFIGURED, s.token), s.name).toMatchObject({ opened: true });
    }
  });

  it('no Origin (a program, not a browser) is accepted', async () => {
    for (const s of sockets()) {
      expect(await open(s.path, undefined, s.token), s.name).toMatchObject({ opened: true });
    }
  });

  it('another site is refused with 403 and a coded envelope before the upgrade', async () => {
    const foreign = [
      'https://evil.example',
      `http://${host}.evil.example`,
      'http://127.0.0.1:1',
      'https://chat.example.com:8443',
      'null',
    ];
    for (const s of sockets()) {
      for (const origin of foreign) {
        const res = await open(s.path, origin, s.token);
        expect(res, `${s.name} ${origin}`).toMatchObject({ opened: false, status: 403 });
        const body = JSON.parse((res as { body: string }).body) as unknown;
        expect(body).toEqual({
          code: '400003',
          msg: 'Origin not allowed',
          data: { reason: 'origin_not_allowed' },
        });
      }
    }
  });
});

describe('PARLEY_ALLOWED_ORIGINS', () => {
  it('reads a comma-separated list of origins; anything else stops the start', () => {
    const read = (value: string) =>
      loadConfig({ PARLEY_ALLOWED_ORIGINS: value }).realtime.allowedOrigins;
    expect(read('')).toEqual([]);
    expect(read('https://Chat.Example.com/, http://10.0.0.5:8080')).toEqual([
      'https://chat.example.com',
      'http://10.0.0.5:8080',
    ]);
    expect(read('*')).toEqual(['*']);
    expect(() => read('chat.example.com')).toThrow(ConfigError);
    expect(() => read('https://chat.example.com/console')).toThrow(ConfigError);
  });
});
