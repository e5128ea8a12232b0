#!/usr/bin/env node
// What an idle console costs (issue 25, see bench/README.md):
//
//   npm run build && node bench/idle-console.mjs [--pg <postgres-url>] [--seconds 60] [--keep]
//
// Seeds the large workspace (lib/workspace.mjs: 10,000 chats), starts the built server with the
// customer sandbox on, opens the built console in Debian's Chromium and scrolls the biggest
// list (Ungrouped, last 24 hours) until 21 pages are loaded. Then, for `--seconds` (60), a
// customer writes into one of the loaded chats once a second (`--every 12`: every 12 s; through
// the sandbox's API, as another party), while the console is left alone. It counts the console's requests by call and
// the server's CPU (on PostgreSQL, its connections' backends too) over that minute; and, as the
// same run's ceiling, the same minute of changes with no console open: what the changes alone
// cost. The console's own cost is the difference. Goal: <= 8 requests in the minute.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { launchChromium } from './lib/browser.mjs';
import { cpuMsOf } from './lib/load.mjs';
import { finishReport, machineOf } from './lib/load.mjs';
import {
  SEAT,
  createTarget,
  dropTarget,
  log,
  requireBuild,
  round,
  runBench,
  seed,
  sleep,
  startServer,
  stopServer,
} from './lib/workspace.mjs';

const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i === -1 ? fallback : argv[i + 1];
};
const SECONDS = Number(arg('--seconds', 60));
// Seconds between two changes: 1 (the load), or more than the 10-second poll (12) to
// see what a console polling its lists did between changes.
const EVERY = Number(arg('--every', 1));
const PG = arg('--pg', null);
const KEEP = argv.includes('--keep');
// Only what a getGroupInfo cache miss costs the server (no console): MISS_ROUNDS times a change,
// then the 21 pages read again through the API (each a miss).
const MISSES_ONLY = argv.includes('--misses');
const MISS_ROUNDS = 10;
const PAGES = 21;
const GOAL_REQUESTS = 8;
const APP_NAME = 'parley_idle_bench';
requireBuild('idle-console.mjs');

async function api(base, token, call, body) {
  const res = await fetch(`${base}/v1/seat/chat/${call}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (json.code !== '000000') throw new Error(`${call}: ${json.code} ${json.msg}`);
  return json.data;
}

/** The server's PostgreSQL backends (by application_name), sampled: CPU ms each last seen. */
async function backendCpu(url) {
  if (!url) return null;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const seen = new Map();
  const sample = async () => {
    const { rows } = await client.query(
      'select pid from pg_stat_activity where application_name = $1',
      [APP_NAME],
    );
    for (const { pid } of rows) {
      const ms = cpuMsOf(pid);
      if (ms !== null) seen.set(pid, Math.max(seen.get(pid) ?? 0, ms));
    }
  };
  await sample();
  const start = new Map(seen);
  const timer = setInterval(() => void sample().catch(() => undefined), 500);
  return {
    async stop() {
      clearInterval(timer);
      await sample();
      await client.end();
      let ms = 0;
      for (const [pid, now] of seen) ms += now - (start.get(pid) ?? 0);
      return ms;
    },
  };
}

/** One customer message every EVERY seconds into `chats` (spread over them), for SECONDS. */
// One sandbox key for the run: a customer number is bound to the first key that plays it.
const KEY = randomBytes(32).toString('base64url');

async function changes(base, chats) {
  const t0 = Date.now();
  let sent = 0;
  while (Date.now() - t0 < SECONDS * 1000 - 50) {
    const chat = chats[(sent * 7919) % chats.length];
    const res = await fetch(`${base}/v1/sandbox/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-parley-sandbox-key': KEY },
      body: JSON.stringify({
        account: chat.send_phone,
        customer: chat.receiver_phone,
        content: `idle bench ${sent}`,
      }),
    });
    const json = await res.json();
    if (json.code !== '000000') throw new Error(`sandbox send: ${json.code} ${json.msg}`);
    sent += 1;
    await sleep(Math.max(0, Math.min(t0 + SECONDS * 1000, t0 + sent * EVERY * 1000) - Date.now()));
  }
  return sent;
}

/** The server's CPU (and its backends') over a minute of changes. */
async function measureMinute(server, chats, pgUrl) {
  const backends = await backendCpu(pgUrl);
  const before = cpuMsOf(server.child.pid);
  const t0 = Date.now();
  const sent = await changes(server.base, chats);
  const seconds = (Date.now() - t0) / 1000;
  const serverMs = cpuMsOf(server.child.pid) - before;
  const backendMs = backends ? await backends.stop() : null;
  const perMinute = (ms) => (ms === null ? null : round((ms * 60) / seconds, 1));
  return {
    seconds: round(seconds, 1),
    changes: sent,
    server_cpu_ms_per_min: perMinute(serverMs),
    backends_cpu_ms_per_min: perMinute(backendMs),
  };
}

/** Server (and backend) CPU ms of a change alone, and of a getGroupInfo miss. */
async function measureMisses(server, token, groupId, chats, pgUrl) {
  const cpu = async (work) => {
    const backends = await backendCpu(pgUrl);
    const before = cpuMsOf(server.child.pid);
    await work();
    const serverMs = cpuMsOf(server.child.pid) - before;
    return { serverMs, backendMs: backends ? await backends.stop() : null };
  };
  let n = 0;
  const change = () =>
    fetch(`${server.base}/v1/sandbox/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-parley-sandbox-key': KEY },
      body: JSON.stringify({
        account: chats[(n * 7919) % chats.length].send_phone,
        customer: chats[(n++ * 7919) % chats.length].receiver_phone,
        content: `miss bench ${n}`,
      }),
    }).then((r) => r.json());
  const readAll = async () => {
    let cursor;
    for (let p = 0; p < PAGES; p++) {
      const page = await api(server.base, token, 'getGroupInfo', {
        group_id: groupId,
        user_time_type: 1,
        reply: 0,
        cursor,
      });
      cursor = page.next_cursor ?? undefined;
    }
  };
  await readAll(); // warm: every page cached
  const changesAlone = await cpu(async () => {
    for (let i = 0; i < MISS_ROUNDS; i++) await change();
  });
  const withMisses = await cpu(async () => {
    for (let i = 0; i < MISS_ROUNDS; i++) {
      await change();
      await readAll();
    }
  });
  const misses = MISS_ROUNDS * PAGES;
  const per = (a, b) => (a === null || b === null ? null : round((a - b) / misses, 3));
  return {
    misses,
    server_cpu_ms_per_miss: per(withMisses.serverMs, changesAlone.serverMs),
    backend_cpu_ms_per_miss: per(withMisses.backendMs, changesAlone.backendMs),
  };
}

async function main() {
  const started = new Date();
  const loadBefore = os.loadavg()[0];
  const { target, env } = await createTarget(PG);
  env.PARLEY_SANDBOX = 'on';
  // The sandbox's sends and the console's logins come from one address.
  env.PARLEY_RATE_LIMIT_PER_MINUTE = '0';
  let pgUrl = null;
  if (env.DATABASE_URL) {
    const url = new URL(env.DATABASE_URL);
    url.searchParams.set('application_name', APP_NAME);
    env.DATABASE_URL = url.toString();
    pgUrl = target.url;
  }
  let server = null;
  let browser = null;
  try {
    const seedInfo = await seed(target, env);
    log(`seeded ${seedInfo.chats} chats`);
    server = await startServer(env);
    const login = await api(server.base, null, 'login', {
      account: SEAT.account,
      password: SEAT.password,
    });
    const ungrouped = seedInfo.group_ids.ungrouped;
    // The chats of the pages the console will hold: the changes go to them.
    const loaded = [];
    let cursor;
    for (let p = 0; p < PAGES; p++) {
      const page = await api(server.base, login.token, 'getGroupInfo', {
        group_id: ungrouped,
        user_time_type: 1,
        page_size: 50,
        cursor,
      });
      loaded.push(...page.account_list.filter((s) => !s.is_top));
      cursor = page.next_cursor ?? undefined;
    }

    if (MISSES_ONLY) {
      const misses = await measureMisses(server, login.token, ungrouped, loaded, pgUrl);
      const machine = machineOf(loadBefore);
      console.log(
        `getGroupInfo misses (${target.kind}) | load ${machine.load_avg_1m_before} -> ` +
          `${machine.load_avg_1m_after} | ${JSON.stringify(misses)}`,
      );
      finishReport('idle-console-misses', started, target.kind, [], { machine, misses });
      return;
    }

    // The ceiling: the same minute of changes with no console open.
    log(`a minute of changes with no console (${SECONDS} s)…`);
    const alone = await measureMinute(server, loaded, pgUrl);

    browser = await launchChromium();
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      locale: 'en-US',
      baseURL: server.base,
    });
    await context.addInitScript((info) => {
      if (!localStorage.getItem('userInfo')) localStorage.setItem('userInfo', JSON.stringify(info));
    }, login);
    const page = await context.newPage();
    const requests = new Map();
    let counting = false;
    let pagesLoaded = 0;
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (!url.pathname.startsWith('/v1/')) return;
      if (url.pathname.endsWith('/getGroupInfo')) pagesLoaded += 1;
      if (counting) requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1);
    });
    await page.goto('/home/chat');
    await page.locator('[data-testid="group-item"][data-group-type="ungrouped"]').click();
    await page.getByTestId('time-tab-1').click();
    await page.getByTestId('user-item').first().waitFor();
    const list = page.getByTestId('user-list');
    await list.hover();
    const tScroll = Date.now();
    pagesLoaded = 0;
    // Page 1 was read before the counter was reset.
    while (pagesLoaded + 1 < PAGES && Date.now() - tScroll < 120_000) {
      await page.mouse.wheel(0, 1500);
      await sleep(30);
    }
    log(`console holds ${pagesLoaded + 1} pages; settling…`);
    await sleep(3000);

    log(`a minute of changes with the console open and idle (${SECONDS} s)…`);
    counting = true;
    const withConsole = await measureMinute(server, loaded, pgUrl);
    await sleep(500);
    counting = false;
    const total = [...requests.values()].reduce((a, b) => a + b, 0);
    const consoleMs = (a, b) => (a === null || b === null ? null : round(a - b, 1));
    const result = {
      pages_loaded: pagesLoaded + 1,
      console_requests: total,
      console_requests_by_call: Object.fromEntries(requests),
      goal_requests: GOAL_REQUESTS,
      change_every_s: EVERY,
      with_console: withConsole,
      ceiling_no_console: alone,
      console_server_cpu_ms_per_min: consoleMs(
        withConsole.server_cpu_ms_per_min,
        alone.server_cpu_ms_per_min,
      ),
      console_backends_cpu_ms_per_min: consoleMs(
        withConsole.backends_cpu_ms_per_min,
        alone.backends_cpu_ms_per_min,
      ),
    };
    const machine = machineOf(loadBefore);
    console.log(
      `idle console (${target.kind}) | ${machine.cpus} CPU(s), load ${machine.load_avg_1m_before}` +
        ` -> ${machine.load_avg_1m_after} | uptime: ${readFileSync('/proc/loadavg', 'utf8').trim()}`,
    );
    console.log(
      `- requests in ${withConsole.seconds} s with ${withConsole.changes} changes (one every` +
        ` ${EVERY} s): ${total}` +
        ` (goal <= ${GOAL_REQUESTS}) ${JSON.stringify(result.console_requests_by_call)}`,
    );
    console.log(
      `- server CPU per minute: with the console ${withConsole.server_cpu_ms_per_min} ms,` +
        ` ceiling (the changes alone) ${alone.server_cpu_ms_per_min} ms,` +
        ` the console's share ${result.console_server_cpu_ms_per_min} ms` +
        (pgUrl
          ? `; backends ${withConsole.backends_cpu_ms_per_min} / ${alone.backends_cpu_ms_per_min} ms`
          : ''),
    );
    const problems = total > GOAL_REQUESTS ? [`${total} requests > ${GOAL_REQUESTS}`] : [];
    finishReport('idle-console', started, target.kind, problems, { machine, result });
  } finally {
    await browser?.close();
    if (server) await stopServer(server);
    await dropTarget(target, env, KEEP);
  }
}

runBench(main, 12);
