// Runs a command and prints the most PostgreSQL client connections open at once while it ran,
// by database: how near a test run comes to the server's max_connections (test/helper.ts's
// TEST_PG_POOL_MAX). Usage, from apps/server:
//   node scripts/pg-connection-peak.mjs npx vitest run --project pg
// PARLEY_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) is both the server
// watched and passed on to the command.
import { spawn } from 'node:child_process';
import pg from 'pg';

const url = process.env.PARLEY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/pg-connection-peak.mjs <command> [args…]');
  process.exit(2);
}

const watcher = new pg.Client({ connectionString: url });
await watcher.connect();
const { rows: limit } = await watcher.query("select current_setting('max_connections') as max");
let peak = { total: 0, byDatabase: {} };
let sampling = true;
const sample = async () => {
  while (sampling) {
    const { rows } = await watcher.query(
      `select coalesce(datname, '?') as db, count(*)::int as n from pg_stat_activity
        where backend_type = 'client backend' and pid <> pg_backend_pid() group by 1`,
    );
    const total = rows.reduce((sum, r) => sum + r.n, 0);
    if (total > peak.total)
      peak = { total, byDatabase: Object.fromEntries(rows.map((r) => [r.db, r.n])) };
    await new Promise((r) => setTimeout(r, 100));
  }
};
const sampled = sample();

const child = spawn(command, args, {
  stdio: 'inherit',
  env: { ...process.env, PARLEY_TEST_DATABASE_URL: url },
});
const code = await new Promise((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
sampling = false;
await sampled;
await watcher.end();
console.log(
  `PostgreSQL client connections at most: ${peak.total} of max_connections ${limit[0].max}`,
  peak.byDatabase,
);
process.exit(code);
