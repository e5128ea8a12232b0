import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
        const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 15_000);
        child.stdout.on('data', () => {
          const m = /Parley listening on http:\/\/localhost:(\d+)/.exec(out);
          if (m && out.includes('Demo workspace loaded')) {
            clearTimeout(timer);
            resolve(Number(m[1]));
          }
        });
      });
      expect(out).toContain('Demo workspace loaded: log in as demo / parley-demo');
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
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
