#!/usr/bin/env node
// Server time of the owner's chart series over 30 days of the demo workspace (issue 28: within
// 50 ms), beside the live overview's numbers measured in the same run as a ceiling to compare.
//
//   npm run build && node bench/admin-stats.mjs [--pg <postgres-url>]
//
// Opens a fresh database (a temp SQLite file, or a fresh schema of --pg), loads the demo
// workspace as `parley demo` does, and times the service calls in-process (no HTTP): the median
// of 30 runs after 5 warm-ups.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';

const dist = new URL('../apps/server/dist/', import.meta.url);
const { loadConfig } = await import(new URL('config.js', dist));
const { openDatabase } = await import(new URL('db/database.js', dist));
const { loadDemo } = await import(new URL('demo/demo.js', dist));
const { AdminStatsService } = await import(new URL('modules/admin/admin-stats.service.js', dist));
const { AdminConsoleService } = await import(
  new URL('modules/admin/admin-console.service.js', dist)
);

const argv = process.argv.slice(2);
const pgUrl = argv.includes('--pg') ? argv[argv.indexOf('--pg') + 1] : null;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-stats-bench-'));
const schema = `stats_bench_${process.pid}`;
if (pgUrl) {
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  await c.query(`create schema ${schema}`);
  await c.end();
}
const config = {
  ...loadConfig({ PARLEY_DATA_DIR: dataDir, ...(pgUrl ? { DATABASE_URL: pgUrl } : {}) }),
  pgSchema: pgUrl ? schema : null,
};
const handle = await openDatabase(config);
const demo = await loadDemo(handle.db);
const stats = new AdminStatsService(handle.db);
const overview = new AdminConsoleService(handle.db, null, null, null);
const seat = (
  await handle.db
    .selectFrom('seats')
    .select('id')
    .where('account', '=', 'demo')
    .executeTakeFirstOrThrow()
).id;

const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const month = { timeZone: 'Asia/Kolkata', from: day(-29), to: day(0) };
async function time(run) {
  for (let i = 0; i < 5; i++) await run();
  const ms = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    await run();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { median: +ms[15].toFixed(2), max: +ms[29].toFixed(2) };
}
const ceiling = await time(() => overview.overview(330));
/** A series' time and its ratio to the overview's, measured in the same run. */
async function against(run) {
  const r = await time(run);
  return {
    ...r,
    'of overview': +(r.median / ceiling.median).toFixed(2),
    'goal 50 ms': r.median <= 50,
  };
}
const results = {
  database: handle.dialect,
  demo,
  load: os.loadavg().map((l) => +l.toFixed(2)),
  'overview (ceiling)': ceiling,
  '30 days, every seat': await against(() => stats.seriesOf({ ...month, seatId: null })),
  '30 days, one seat': await against(() => stats.seriesOf({ ...month, seatId: seat })),
  'today by hour, every seat': await against(() =>
    stats.seriesOf({ ...month, from: day(0), seatId: null }),
  ),
  'live update (the current hour)': await against(() =>
    stats.seriesOf({ ...month, from: day(0), seatId: null, since: Date.now() - 1 }),
  ),
  "30 days, one seat's hours and waits": await against(() =>
    stats.seat({ time_zone: month.timeZone, from: month.from, to: month.to, seat_id: seat }),
  ),
};
console.log(JSON.stringify(results, null, 2));
await handle.close();
rmSync(dataDir, { recursive: true, force: true });
if (pgUrl) {
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  await c.query(`drop schema ${schema} cascade`);
  await c.end();
}
