import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_ADMIN_PASSWORD, DEMO_PASSWORD } from '../src/demo/demo.js';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

// The built server as `npm start` runs it: needs `npm run build`, which `npm test` runs first.
// The embedded database only (the PostgreSQL project leaves this file out).
describe('the built server', () => {
  it('seeds the demo, prints the banner, answers, and stops on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-main-'));
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        PARLEY_DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 40_000);
        child.stdout.on('data', () => {
          const m = /Parley listening on http:\/\/localhost:(\d+)/.exec(out);
          if (m && out.includes('/admin/login')) {
            clearTimeout(timer);
            resolve(Number(m[1]));
          }
        });
      });
      expect(out).toContain(`Console:  http://localhost:${port}/login  (demo: demo / parley-demo)`);
      expect(out).toContain(`Sandbox:  http://localhost:${port}/sandbox`);
      expect(out).toContain(
        `Admin:    http://localhost:${port}/admin/login  (demo: admin / parley-admin)`,
      );
      const res = await fetch(`http://127.0.0.1:${port}/v1/seat/chat/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account: 'demo', password: 'parley-demo' }),
      });
      const body = (await res.json()) as { code: string; data: { token: string } };
      expect(body.code).toBe('000000');
      expect(body.data.token).toBeTruthy();
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(await health.json()).toEqual({ status: 'ok' });
      // It holds bot tokens and the media signing secret: the server's user alone reads it.
      for (const file of ['parley.db', 'parley.db-wal']) {
        expect(statSync(path.join(dataDir, file)).mode & 0o777, file).toBe(0o600);
      }
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('prints, at the default level, one readable line per call and none for polls', async () => {
    const run = await startBuilt({});
    try {
      const token = await run.login();
      for (let i = 0; i < 3; i++) {
        await fetch(`${run.url}/healthz`);
        await run.call('/v1/seat/chat/getGroupList', token, { seat_id: 1, reply: 0 });
        await fetch(`${run.url}/v1/sandbox/accounts`);
      }
      await run.call('/v1/seat/chat/login', null, { account: 'demo', password: 'wrong' });
      const out = await run.stop();
      const lines = out.split('\n').filter((l) => l.trim() !== '');
      // Readable for a person: no JSON line.
      expect(lines.filter((l) => l.trimStart().startsWith('{'))).toEqual([]);
      // One line per call, saying what happened; nothing for the polls and health checks.
      const logins = lines.filter((l) => l.includes('/v1/seat/chat/login'));
      expect(logins).toHaveLength(2);
      expect(logins[1]).toMatch(/POST \/v1\/seat\/chat\/login \d{3} 100005 [\d.]+ ms/);
      expect(lines.filter((l) => /healthz|getGroupList|\/v1\/sandbox/.test(l))).toEqual([]);
      expect(lines.filter((l) => /incoming request|request completed/.test(l))).toEqual([]);
    } finally {
      await run.stop();
    }
  });

  it('prints only JSON on stdout with LOG_FORMAT=json, and no demo password', async () => {
    const run = await startBuilt({ LOG_FORMAT: 'json', PARLEY_DEMO: 'on' });
    try {
      await run.login();
      await run.stop();
      const lines = run
        .stdout()
        .split('\n')
        .filter((l) => l.trim() !== '');
      const entries = lines.map((l) => JSON.parse(l) as { msg: string; port?: number });
      expect(entries.some((e) => /^Parley listening on http:\/\/localhost:\d+$/.test(e.msg))).toBe(
        true,
      );
      expect(entries.some((e) => e.msg.startsWith('demo workspace loaded'))).toBe(true);
      expect(run.stdout()).not.toContain(DEMO_PASSWORD);
      expect(run.stdout()).not.toContain(DEMO_ADMIN_PASSWORD);
    } finally {
      await run.stop();
    }
  });

  it('a quiet terminal: "listening" once on every interface, the addresses, one line per message sent', async () => {
    // 0.0.0.0: Fastify would say "Server listening at" once per network interface.
    const run = await startBuilt({ HOST: '0.0.0.0' });
    try {
      const token = await run.login();
      const groups = (await run.call('/v1/seat/chat/getGroupList', token, {})) as unknown as {
        data: { group_list: { group_id: number }[] };
      };
      let chat: { send_phone: string; receiver_phone: string } | undefined;
      for (const g of groups.data.group_list) {
        const page = (await run.call('/v1/seat/chat/getGroupInfo', token, {
          group_id: g.group_id,
        })) as unknown as {
          data: {
            account_list: { send_phone: string; receiver_phone: string; blocked: boolean }[];
          };
        };
        chat = page.data.account_list.find((c) => !c.blocked);
        if (chat) break;
      }
      expect(chat).toBeDefined();
      const sent = await run.call('/v1/seat/chat/message', token, {
        send_phone: chat!.send_phone,
        receiver_phone: chat!.receiver_phone,
        content: 'A quiet terminal',
        client_msg_id: randomUUID(),
      });
      expect(sent.code).toBe('000000');
      // The delivery (the sandbox answers at once) has had its time to be logged.
      await new Promise((r) => setTimeout(r, 1500));
      const out = await run.stop();
      const lines = out.split('\n').filter((l) => l.trim() !== '');
      expect(lines.filter((l) => /listening/i.test(l))).toHaveLength(1);
      expect(out).toMatch(/Console: +http:\/\/localhost:\d+\/login/);
      expect(out).toMatch(/Sandbox: +http:\/\/localhost:\d+\/sandbox/);
      expect(out).toMatch(/Admin: +http:\/\/localhost:\d+\/admin\/login/);
      expect(lines.filter((l) => l.includes('/v1/seat/chat/message'))).toHaveLength(1);
      expect(lines.filter((l) => /outbox item delivered/.test(l))).toEqual([]);
    } finally {
      await run.stop();
    }
  });

  it('prints JSON lines with LOG_FORMAT=json', async () => {
    const run = await startBuilt({ LOG_FORMAT: 'json' });
    try {
      await run.login();
      const out = await run.stop();
      const lines = out.split('\n').filter((l) => l.trimStart().startsWith('{'));
      const entries = lines.map((l) => JSON.parse(l) as { path?: string; msg: string });
      const login = entries.filter((e) => e.path === '/v1/seat/chat/login');
      expect(login).toHaveLength(1);
      expect(login[0]).toMatchObject({ method: 'POST', status: 200 });
    } finally {
      await run.stop();
    }
  });

  it('refuses to start on a bad value, naming each bad variable (exit 78)', async () => {
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        PORT: 'eighty',
        PARLEY_DEMO: 'maybe',
        PARLEY_TELEGRAM_API_URL: 'api.telegram.org',
        PARLEY_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'parley-main-')),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(78);
    expect(err).toContain('Configuration error: ');
    expect(err).toContain('PORT must be an integer from 0 to 65535 (got "eighty")');
    expect(err).toContain('PARLEY_DEMO must be one of auto, on, off (got "maybe")');
    expect(err).toContain('PARLEY_TELEGRAM_API_URL must be a http:// or https:// URL');
    expect(err).not.toMatch(/\bat .*\.js:\d+/);
  });
});

/** The built server on a fresh data directory, with the default log settings unless given. */
async function startBuilt(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-main-'));
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    PARLEY_DATA_DIR: dataDir,
    // SIGTERM closes at once (no balancer to wait for).
    PARLEY_SHUTDOWN_GRACE_MS: '0',
    ...env,
  };
  delete childEnv.LOG_LEVEL;
  delete childEnv.LOG_FORMAT;
  Object.assign(childEnv, env);
  const child = spawn(process.execPath, [MAIN], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 40_000);
    child.stdout.on('data', () => {
      const m = /Parley listening on http:\/\/localhost:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const call = async (p: string, token: string | null, body: unknown) => {
    const res = await fetch(`${url}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { code: string; data: { token: string } };
  };
  return {
    url,
    call,
    login: async () =>
      (await call('/v1/seat/chat/login', null, { account: 'demo', password: 'parley-demo' })).data
        .token,
    /** SIGTERM, wait for the exit, and return everything it printed. */
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
      return out;
    },
    /** What it printed on stdout only. */
    stdout: () => stdout,
  };
}
