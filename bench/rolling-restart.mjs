// A rolling restart (or upgrade) of two instances behind deploy/nginx.conf under load, longer
// and heavier than the test: runs apps/server/test/rolling-upgrade.test.ts with more operators
// and load before each roll, and prints its figures (requests, failures by kind, sends
// acknowledged / lost / doubled, push events missed, resumes, exit codes, time per roll step).
// See bench/README.md.
// Usage: npm run build && node bench/rolling-restart.mjs --pg postgres://postgres@127.0.0.1:5432/postgres
//   [--operators 50] [--warm-seconds 30] [--redis redis://127.0.0.1:6379]
//   [--only restart|upgrade|kill]
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const PG = opt('pg', process.env.PARLEY_TEST_DATABASE_URL);
if (!PG) {
  console.error('rolling-restart.mjs needs PostgreSQL: --pg postgres://…/<an existing database>');
  process.exit(2);
}
const ONLY = {
  restart: 'fails no request',
  upgrade: 'upgrade: from the previous release',
  kill: 'an instance killed mid-roll',
}[opt('only', '')];

const child = spawn(
  'npx',
  [
    'vitest',
    'run',
    'test/rolling-upgrade.test.ts',
    '--project',
    'pg',
    '--testTimeout',
    '3600000',
    ...(ONLY ? ['-t', ONLY] : []),
  ],
  {
    cwd: path.join(ROOT, 'apps/server'),
    env: {
      ...process.env,
      PARLEY_TEST_DATABASE_URL: PG,
      PARLEY_TEST_REDIS_URL: opt('redis', 'redis://127.0.0.1:6379'),
      PARLEY_ROLL_OPERATORS: opt('operators', '50'),
      PARLEY_ROLL_WARM_MS: String(Number(opt('warm-seconds', '30')) * 1000),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
let out = '';
child.stdout.on('data', (d) => (out += d.toString()));
child.on('exit', (code) => {
  const figures = out
    .split('\n')
    .filter((l) => /^(rolling restart|rolling upgrade|SIGKILL mid-roll| {2}failed):? /.test(l));
  const load = os.loadavg().map((l) => l.toFixed(1));
  console.log(
    `load: ${opt('operators', '50')} operators, ${opt('warm-seconds', '30')} s before each roll; ` +
      `machine load average ${load.join(' / ')} (1 / 5 / 15 min) at the end`,
  );
  console.log(figures.join('\n') || out);
  console.log(code === 0 ? 'every assertion held' : `FAILED (vitest exit ${code}); see above`);
  process.exit(code ?? 1);
});
