#!/usr/bin/env node
// A seat's calls while the owner runs large CSV exports (issue 34, item 8): on SQLite, 4 audit
// exports of ~40 MB and 4 series exports of 366 days at once once held a seat's getGroupList
// up to 17 s. Goal: with 8 large exports asked for at once (and asked again on a busy answer,
// as a person would), the seat's p99 stays within 2× of its p99 without them, measured in the
// same run.
//
//   npm run build && node bench/export-load.mjs [--seconds S] [--rounds R] [--exports N] [--only audit|series]
//     [--audit-mb M] [--pg <url>] [--keep] [--suffix <name>]
//
// Seeds the shared large workspace (bench/lib/workspace.mjs: 10,000 chats, ~200,000 messages)
// plus an audit log of ~40 MB, starts the built server, then: phase 1, one seat client calls
// getGroupList back to back for S seconds (the ceiling); phase 2, the same while N export
// clients (half audit, half series of 366 days) each download, and on 503 `exports_busy`
// wait its Retry-After and ask again. Prints both p99s, their ratio, the exports' figures (finished,
// busy answers, the most streaming at once) and the load average at the start and end of each phase.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import {
  SEAT,
  createTarget,
  dropTarget,
  log,
  openSeedDb,
  percentile,
  requireBuild,
  round,
  runBench,
  runCli,
  seed,
  sleep,
  startServer,
  stopServer,
} from './lib/workspace.mjs';
import { finishReport, machineOf } from './lib/load.mjs';

const argv = process.argv.slice(2);
const arg = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const opt = {
  seconds: Number(arg('--seconds', 15)),
  /** Each phase this many times, alternating. */
  rounds: Number(arg('--rounds', 2)),
  exports: Number(arg('--exports', 8)),
  pg: arg('--pg', null),
  keep: argv.includes('--keep'),
  auditMb: Number(arg('--audit-mb', 40)),
  /** `audit` or `series`: every export of that kind (default: half and half). */
  only: arg('--only', null),
};
requireBuild('export-load.mjs');

const ADMIN = { account: 'bench-owner', password: 'bench-owner-password-1' };

/** ~40 MB of audit rows (before/after JSON of a seat's settings, as the console writes). */
async function seedAudit(target, megabytes) {
  const db = await openSeedDb(target);
  const pad = 'x'.repeat(120);
  const row = (i) => [
    Date.now() - i * 1000,
    'admin',
    ADMIN.account,
    'seat.update',
    'seat',
    1 + (i % 50),
    `seat-${i % 50}`,
    JSON.stringify({ nickname: `Operator ${i}`, note: pad, frozen: false }),
    JSON.stringify({ nickname: `Operator ${i + 1}`, note: pad, frozen: i % 7 === 0 }),
  ];
  const bytesPerRow = row(0).join(',').length;
  const rows = Math.ceil((megabytes * 1024 * 1024) / bytesPerRow);
  const sql =
    'INSERT INTO audit_log (at, actor_type, actor, action, target_type, target_id, target, before, after) VALUES ';
  const BATCH = 500;
  if (db.kind === 'sqlite') db.raw.exec('BEGIN');
  for (let i = 0; i < rows; i += BATCH) {
    const n = Math.min(BATCH, rows - i);
    const params = [];
    const values = [];
    for (let k = 0; k < n; k++) {
      values.push('(?, ?, ?, ?, ?, ?, ?, ?, ?)');
      params.push(...row(i + k));
    }
    if (db.kind === 'sqlite') db.raw.prepare(sql + values.join(', ')).run(...params);
    else await db.all(sql + values.join(', '), params);
  }
  if (db.kind === 'sqlite') db.raw.exec('COMMIT');
  await db.close();
  return rows;
}

async function post(base, path, body, token) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: JSON.stringify(body),
  });
  return res.json();
}

/** getGroupList back to back until `until`; each call's time in ms. */
async function seatLoop(base, token, until) {
  const ms = [];
  while (performance.now() < until) {
    const t0 = performance.now();
    const res = await post(base, '/v1/seat/chat/getGroupList', {}, token);
    if (res.code !== '000000') throw new Error(`getGroupList: ${JSON.stringify(res)}`);
    ms.push(performance.now() - t0);
  }
  return ms;
}

function summary(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    calls: sorted.length,
    p50_ms: round(percentile(sorted, 50)),
    p99_ms: round(percentile(sorted, 99)),
    max_ms: round(sorted[sorted.length - 1] ?? 0),
  };
}

/** Exports streaming now, and the most at once, over every client. */
const running = { now: 0, most: 0 };

/** One owner downloading exports in a loop until `until`; a busy answer waits Retry-After. */
async function exportLoop(base, adminToken, path, until, stats) {
  while (performance.now() < until) {
    const t0 = performance.now();
    const res = await fetch(`${base}${path}`, { headers: { authorization: adminToken } });
    if (res.status === 503) {
      const body = await res.json();
      if (body.data?.reason !== 'exports_busy') throw new Error(JSON.stringify(body));
      stats.busy++;
      const wait = Number(res.headers.get('retry-after')) * 1000;
      await sleep(Math.min(wait, Math.max(0, until - performance.now())));
      continue;
    }
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    running.now++;
    running.most = Math.max(running.most, running.now);
    let bytes = 0;
    try {
      for await (const chunk of res.body) bytes += chunk.length;
    } finally {
      running.now--;
    }
    stats.done++;
    stats.bytes += bytes;
    stats.ms.push(performance.now() - t0);
  }
}

async function main() {
  const started = new Date();
  const loadBefore = os.loadavg()[0];
  const { target, env } = await createTarget(opt.pg);
  const problems = [];
  let server;
  try {
    await seed(target, env);
    runCli(['admin:create', ADMIN.account, '--password', ADMIN.password], env);
    log(`audit log of ~${opt.auditMb} MB…`);
    const auditRows = await seedAudit(target, opt.auditMb);
    server = await startServer(env);
    const { base } = server;
    const seatLogin = await post(base, '/v1/seat/chat/login', {
      account: SEAT.account,
      password: SEAT.password,
    });
    const adminLogin = await post(base, '/v1/admin/login', ADMIN);
    if (seatLogin.code !== '000000' || adminLogin.code !== '000000') {
      throw new Error(`login: ${JSON.stringify({ seatLogin, adminLogin })}`);
    }
    const seatToken = seatLogin.data.token;
    const adminToken = `Bearer ${adminLogin.data.token}`;
    const year = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    const audit = '/v1/admin/export/audit.csv';
    const series = `/v1/admin/export/series.csv?time_zone=Europe/Berlin&from=${year}&to=${today}`;
    const paths =
      opt.only === 'audit'
        ? [audit, audit]
        : opt.only === 'series'
          ? [series, series]
          : [audit, series];

    await seatLoop(base, seatToken, performance.now() + 2_000); // warm-up
    // The phases alternate, `rounds` times each: the machine's load drifts over a minute.
    const aloneMs = [];
    const loadedMs = [];
    const loads = { alone: [], loaded: [] };
    const stats = paths.map(() => ({ done: 0, busy: 0, bytes: 0, ms: [] }));
    let most = 0;
    for (let round = 1; round <= opt.rounds; round++) {
      log(`round ${round}/${opt.rounds}, phase 1: the seat alone for ${opt.seconds} s…`);
      loads.alone.push(os.loadavg()[0]);
      aloneMs.push(...(await seatLoop(base, seatToken, performance.now() + opt.seconds * 1000)));

      log(
        `round ${round}/${opt.rounds}, phase 2: the seat with ${opt.exports} exports asked for at once…`,
      );
      loads.loaded.push(os.loadavg()[0]);
      const until = performance.now() + opt.seconds * 1000;
      // The export clients download in a thread of their own, as the owner's browser is not
      // the seat's: on the seat client's loop, reading 45 MB answers delayed reading its own.
      const exporters = new Worker(new URL(import.meta.url), {
        workerData: { base, adminToken, paths, exports: opt.exports, ms: opt.seconds * 1000 },
      });
      const exported = new Promise((resolve, reject) => {
        exporters.once('message', resolve);
        exporters.once('error', reject);
      });
      const [loaded, figures] = await Promise.all([seatLoop(base, seatToken, until), exported]);
      loadedMs.push(...loaded);
      figures.stats.forEach((f, i) => {
        stats[i].done += f.done;
        stats[i].busy += f.busy;
        stats[i].bytes += f.bytes;
        stats[i].ms.push(...f.ms);
      });
      most = Math.max(most, figures.most);
    }
    loads.alone.push(os.loadavg()[0]);
    const alone = summary(aloneMs);
    const withExports = summary(loadedMs);
    const ratio = round(withExports.p99_ms / alone.p99_ms);
    if (!(ratio <= 2)) problems.push(`p99 with exports is ${ratio}× the p99 without (goal ≤ 2×)`);
    const exportsOf = (s) => ({
      finished: s.done,
      busy_answers: s.busy,
      mb_each: s.done ? round(s.bytes / s.done / 1024 / 1024) : null,
      median_s: s.ms.length
        ? round(
            percentile(
              [...s.ms].sort((a, b) => a - b),
              50,
            ) / 1000,
          )
        : null,
    });
    const report = {
      machine: machineOf(loadBefore),
      load: {
        exports_asked_at_once: opt.exports,
        kinds: opt.only ?? 'audit and series',
        audit_rows: auditRows,
        audit_mb: opt.auditMb,
        series_days: 366,
        seconds_per_phase: opt.seconds,
        rounds: opt.rounds,
      },
      'getGroupList alone (ceiling)': { ...alone, load_avg_1m_at_start: loads.alone },
      'getGroupList with exports': { ...withExports, load_avg_1m_at_start: loads.loaded },
      'p99 ratio (goal ≤ 2)': ratio,
      'exports streaming at once (most)': most,
      [`${opt.only ?? 'audit'} exports${opt.only ? ' (odd clients)' : ''}`]: exportsOf(stats[0]),
      [`${opt.only ?? 'series'} exports${opt.only ? ' (even clients)' : ''}`]: exportsOf(stats[1]),
    };
    console.log(JSON.stringify(report, null, 2));
    finishReport('export-load', started, target.kind, problems, report);
  } finally {
    if (server) await stopServer(server);
    await dropTarget(target, env, opt.keep);
  }
}

/** The export clients' thread: every loop until the phase's end, then their figures. */
async function exportClients({ base, adminToken, paths, exports, ms }) {
  const until = performance.now() + ms;
  const stats = paths.map(() => ({ done: 0, busy: 0, bytes: 0, ms: [] }));
  await Promise.all(
    Array.from({ length: exports }, (_, i) =>
      exportLoop(base, adminToken, paths[i % 2], until, stats[i % 2]),
    ),
  );
  parentPort.postMessage({ stats, most: running.most });
}

if (isMainThread) runBench(main, 20);
else await exportClients(workerData);
