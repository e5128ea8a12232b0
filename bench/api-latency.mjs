#!/usr/bin/env node
// API latency benchmark of the seat service on a large workspace (see bench/README.md).
//
//   npm run build && node bench/api-latency.mjs [--keep] [--quick] [--pg <postgres-url>]
//
// Seeds a fresh temp data dir (one seat, 10,000 chats, ~200,000 messages, one chat with 50,000),
// starts the built server on a free loopback port, measures the calls and stops the server.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_MAIN = path.join(ROOT, 'apps/server/dist/main.js');
const CLI_MAIN = path.join(ROOT, 'apps/server/dist/cli/main.js');
const RESULTS_DIR = path.join(ROOT, 'bench/results');

// ---------------------------------------------------------------------------------------------
// Options and sizes

const argv = process.argv.slice(2);
const opt = {
  keep: argv.includes('--keep'),
  quick: argv.includes('--quick'),
  analyze: argv.includes('--analyze'),
  pg: null,
};
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--pg') opt.pg = argv[++i] ?? null;
  else if (a.startsWith('--pg=')) opt.pg = a.slice(5);
  else if (a === '--help' || a === '-h') {
    console.log(
      'usage: node bench/api-latency.mjs [--keep] [--quick] [--analyze] [--pg <postgres-url>]',
    );
    process.exit(0);
  } else if (!['--keep', '--quick', '--analyze'].includes(a)) {
    console.error(`unknown argument ${a} (see --help)`);
    process.exit(2);
  }
}
if (argv.includes('--pg') && !opt.pg) {
  console.error('--pg needs a postgres:// URL');
  process.exit(2);
}

const SEAT = { account: 'bench', password: 'bench-password-1', nickname: 'Bench operator' };
const SEND_PHONES = ['+15550200001', '+15550200002', '+15550200003', '+15550200004'];
/** Chats per group; the biggest (Ungrouped) is the one paged through. Sum: 10,000. */
const GROUP_SIZES = [
  { key: 'ungrouped', chats: 5500 },
  { key: 'custom:VIP', chats: 1000 },
  { key: 'custom:Leads', chats: 1500 },
  { key: 'custom:Follow-up', chats: 1000 },
  { key: 'tg_link_pushed', chats: 500 },
  { key: 'blocked', chats: 500 },
];
const BIG_CHAT_MESSAGES = 50_000;
const MEDIUM_CHAT_MESSAGES = 1_000; // a chat of a custom group, paged back to its start
const OTHER_MESSAGES_PER_CHAT = 15; // 9,998 × 15 + 50,000 + 1,000 ≈ 201,000
const RECENT_SHARE = 0.3; // chats active in the last 24 h (user_time_type 1)
const PINNED_SHARE = 0.02;
const UNREAD_SHARE = 0.3;

const N = opt.quick ? 0.25 : 1; // --quick: a quarter of the requests (same data)
const SEQ_REQUESTS = Math.round(200 * N);
const CONC_REQUESTS = Math.round(400 * N);
const CONCURRENCY = 8;
const PAGING_PASSES = Math.max(1, Math.round(3 * N));
const CHAT_PAGES_BACK = 20;
const CHAT_PAGING_PASSES = Math.max(1, Math.round(10 * N));
const SCENARIO_TIME_LIMIT_MS = 30_000; // every loop also stops after this long
const REQUEST_TIMEOUT_MS = 10_000;
const GLOBAL_TIMEOUT_MS = 10 * 60_000;

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const MINUTE = 60_000;

// ---------------------------------------------------------------------------------------------
// Small helpers

function log(line) {
  process.stderr.write(`[bench] ${line}\n`);
}

function fail(message) {
  console.error(`\nERROR: ${message}`);
  process.exitCode = 1;
}

/** Deterministic PRNG (mulberry32) so every run seeds the same workspace. */
function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (list) => list[Math.floor(next() * list.length)],
  };
}

function percentile(sorted, p) {
  if (!sorted.length) return null;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

function median(list) {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function round(n, digits = 2) {
  return n === null || n === undefined ? null : Number(n.toFixed(digits));
}

/** Server CPU time (user + system, ms) from /proc/<pid>/stat; robust to a busy machine. */
let serverPid = null;
const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux
function serverCpuMs() {
  if (!serverPid) return null;
  try {
    const stat = readFileSync(`/proc/${serverPid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS; // utime, stime
  } catch {
    return null;
  }
}

function summarize(name, samples, wallMs, extra = {}, cpuMs = null) {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((s, v) => s + v, 0);
  return {
    name,
    requests: sorted.length,
    p50_ms: round(percentile(sorted, 50)),
    p95_ms: round(percentile(sorted, 95)),
    p99_ms: round(percentile(sorted, 99)),
    max_ms: round(sorted[sorted.length - 1] ?? null),
    mean_ms: round(sorted.length ? sum / sorted.length : null),
    req_per_s: round(wallMs > 0 ? (sorted.length * 1000) / wallMs : null, 1),
    server_cpu_ms_per_req: cpuMs === null || !sorted.length ? null : round(cpuMs / sorted.length),
    ...extra,
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

function rssOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => {
      const m = status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'));
      return m ? Math.round(Number(m[1]) / 1024) : null;
    };
    return { vm_rss_mb: field('VmRSS'), vm_hwm_mb: field('VmHWM') };
  } catch {
    return { vm_rss_mb: null, vm_hwm_mb: null };
  }
}

// ---------------------------------------------------------------------------------------------
// Preconditions

if (!existsSync(SERVER_MAIN) || !existsSync(CLI_MAIN)) {
  console.error(
    `apps/server/dist is missing (${path.relative(ROOT, SERVER_MAIN)}).\n` +
      'This benchmark runs the built server: run `npm run build` first, then\n' +
      '  node bench/api-latency.mjs',
  );
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// Database access (SQLite via better-sqlite3, or PostgreSQL via pg) for seeding and checks

async function openSeedDb(target) {
  if (target.kind === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(path.join(target.dataDir, 'parley.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    return {
      kind: 'sqlite',
      all: async (q, params = []) => db.prepare(q).all(...params),
      get: async (q, params = []) => db.prepare(q).get(...params),
      raw: db,
      close: async () => db.close(),
    };
  }
  const { default: pg } = await import('pg');
  pg.types.setTypeParser(20, Number);
  const client = new pg.Client({
    connectionString: target.url,
    options: `-c search_path=${target.schema}`,
  });
  await client.connect();
  const toPg = (q) => {
    let i = 0;
    return q.replace(/\?/g, () => `$${++i}`);
  };
  return {
    kind: 'pg',
    all: async (q, params = []) => (await client.query(toPg(q), params)).rows,
    get: async (q, params = []) => (await client.query(toPg(q), params)).rows[0],
    raw: client,
    close: async () => client.end(),
  };
}

function runCli(args, env) {
  try {
    return execFileSync(process.execPath, [CLI_MAIN, ...args], {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    }).trim();
  } catch (err) {
    throw new Error(`CLI ${args[0]} failed: ${err.stderr || err.message}`, { cause: err });
  }
}

/** Builds every row in memory (deterministic), then inserts in one transaction. */
function buildWorkspace(seatId, groupIds, now) {
  const rnd = prng(20261122);
  const texts = [
    'Hello, I have a question about my order',
    'Sure, could you share the order number please?',
    'It is 4711-2023, the parcel has not arrived yet',
    'Thanks! I see it left the warehouse yesterday, it should arrive tomorrow.',
    'Great, thank you for the quick answer',
    'Can I change the delivery address?',
    'Yes, please send me the new address and a phone number for the courier.',
    'Do you ship to Portugal?',
    'We do, shipping takes 3 to 5 working days.',
    'Is there a discount for wholesale orders above 100 units?',
  ];
  const sessions = [];
  let receiver = 0;
  for (const g of GROUP_SIZES) {
    const groupId = groupIds[g.key];
    const blocked = g.key === 'blocked';
    for (let i = 0; i < g.chats; i++) {
      receiver++;
      const recent = rnd.chance(RECENT_SHARE);
      // Whole minutes so many chats share latest_time (exercises the keyset tie-break on id);
      // nothing between 23 h and 25 h ago, so the tab of a chat cannot change during the run.
      const latest = recent
        ? now - rnd.int(1, 23 * 60) * MINUTE
        : now - 25 * HOUR - rnd.int(0, 89 * 24 * 60) * MINUTE;
      const unread = !blocked && rnd.chance(UNREAD_SHARE) ? rnd.int(1, 5) : 0;
      sessions.push({
        seat_id: seatId,
        send_phone: SEND_PHONES[receiver % SEND_PHONES.length],
        receiver_phone: `+1888${String(receiver).padStart(7, '0')}`,
        group_id: groupId,
        prev_group_id: blocked ? groupIds.ungrouped : null,
        is_top: !blocked && rnd.chance(PINNED_SHARE) ? 1 : 0,
        remark: rnd.chance(0.1) ? `customer ${receiver}` : '',
        un_read_count: unread,
        add_time: latest - rnd.int(1, 30) * DAY,
        latest_time: latest,
        last_direction: unread ? 'in' : rnd.chance(0.5) ? 'in' : 'out',
        customer_language: rnd.pick(['en', 'es', 'pt', 'de', null]),
        blocked: blocked ? 1 : 0,
        messages: OTHER_MESSAGES_PER_CHAT,
      });
    }
  }
  // The big chat: a recent, unpinned chat of the biggest group.
  const big = sessions.find((s) => s.group_id === groupIds.ungrouped && s.latest_time > now - DAY);
  big.messages = BIG_CHAT_MESSAGES;
  big.is_top = 0;
  big.un_read_count = 3;
  big.last_direction = 'in';
  const medium = sessions.find((s) => s.group_id === groupIds['custom:VIP'] && !s.un_read_count);
  medium.messages = MEDIUM_CHAT_MESSAGES;

  for (const s of sessions) {
    const msgs = [];
    let t = s.latest_time;
    for (let i = s.messages - 1; i >= 0; i--) {
      const direction =
        i >= s.messages - s.un_read_count ? 'in' : i === s.messages - 1 ? s.last_direction : null;
      const dir = direction ?? (rnd.chance(0.5) ? 'in' : 'out');
      msgs.push({
        direction: dir,
        content: rnd.pick(texts),
        status: dir === 'in' ? (i >= s.messages - s.un_read_count ? 'delivered' : 'read') : 'read',
        created_at: t,
      });
      t -= s.messages > 1000 ? rnd.int(5, 90) * 1000 : rnd.int(1, 180) * MINUTE;
    }
    msgs.reverse(); // oldest first
    s.msgs = msgs;
    for (const m of msgs) m.session = s;
    const last = msgs[msgs.length - 1];
    s.last_preview = last.content.slice(0, 100);
    s.last_direction = last.direction;
  }
  // Ids follow time across all chats, as in production: a chat's messages interleave with the
  // other chats' (so an id range scan is not the same as a per-chat index scan).
  const messages = sessions.flatMap((s) => s.msgs);
  messages.sort((a, b) => a.created_at - b.created_at);
  return { sessions, messages, big, medium };
}

async function seed(target, env) {
  const t0 = performance.now();
  log('creating the seat and phone accounts with the CLI (runs the migrations)…');
  runCli(
    ['seat:create', SEAT.account, '--password', SEAT.password, '--nickname', SEAT.nickname],
    env,
  );
  for (const phone of SEND_PHONES) {
    runCli(['account:add', phone, '--label', `Bench line ${phone.slice(-1)}`], env);
    runCli(['account:assign', phone, SEAT.account], env);
  }
  const tCli = performance.now();

  const db = await openSeedDb(target);
  const now = Date.now();
  const seat = await db.get('SELECT id FROM seats WHERE account = ?', [SEAT.account]);
  const groupIds = {};
  for (const g of await db.all('SELECT id, name, type FROM seat_groups WHERE seat_id = ?', [
    seat.id,
  ])) {
    groupIds[g.type] = g.id;
  }
  for (const g of GROUP_SIZES.filter((x) => x.key.startsWith('custom:'))) {
    const name = g.key.slice('custom:'.length);
    const row = await db.get(
      'INSERT INTO seat_groups (seat_id, name, type, created_at) VALUES (?, ?, ?, ?) RETURNING id',
      [seat.id, name, 'custom', now - DAY],
    );
    groupIds[g.key] = row.id;
  }

  const { sessions, messages, big, medium } = buildWorkspace(seat.id, groupIds, now);
  const tBuilt = performance.now();
  let messageCount = 0;
  const sessionCols = [
    'seat_id',
    'send_phone',
    'receiver_phone',
    'group_id',
    'prev_group_id',
    'is_top',
    'remark',
    'un_read_count',
    'add_time',
    'latest_time',
    'last_direction',
    'last_preview',
    'last_type',
    'customer_language',
    'blocked',
  ];
  const sessionValues = (s) => [
    s.seat_id,
    s.send_phone,
    s.receiver_phone,
    s.group_id,
    s.prev_group_id,
    s.is_top,
    s.remark,
    s.un_read_count,
    s.add_time,
    s.latest_time,
    s.last_direction,
    s.last_preview,
    'text',
    s.customer_language,
    s.blocked,
  ];
  const msgCols = [
    'session_id',
    'seat_id',
    'client_msg_id',
    'direction',
    'type',
    'content',
    'media',
    'status',
    'created_at',
    'deleted_for_me',
    'deleted_for_all',
  ];
  const msgValues = (m) => [
    m.session.id,
    m.session.seat_id,
    null,
    m.direction,
    'text',
    m.content,
    null,
    m.status,
    m.created_at,
    0,
    0,
  ];

  if (db.kind === 'sqlite') {
    const sqlite = db.raw;
    const insSession = sqlite.prepare(
      `INSERT INTO sessions (${sessionCols.join(', ')}) VALUES (${sessionCols.map(() => '?').join(', ')})`,
    );
    const insMessage = sqlite.prepare(
      `INSERT INTO messages (${msgCols.join(', ')}) VALUES (${msgCols.map(() => '?').join(', ')})`,
    );
    sqlite.transaction(() => {
      for (const s of sessions) {
        s.id = Number(insSession.run(...sessionValues(s)).lastInsertRowid);
      }
      for (const m of messages) insMessage.run(...msgValues(m));
      messageCount += messages.length;
    })();
    // The server never runs ANALYZE; --analyze shows the plans SQLite picks with statistics.
    if (opt.analyze) sqlite.exec('ANALYZE');
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
  } else {
    // PostgreSQL: multi-row inserts (batches of 500 rows) in one transaction.
    const client = db.raw;
    const insertBatch = async (table, cols, rows, returning) => {
      const params = [];
      const tuples = rows.map((r) => {
        const start = params.length;
        params.push(...r);
        return `(${r.map((_, i) => `$${start + i + 1}`).join(', ')})`;
      });
      const q = `INSERT INTO ${table} (${cols.join(', ')}) VALUES ${tuples.join(', ')}${
        returning ? ' RETURNING id' : ''
      }`;
      return (await client.query(q, params)).rows;
    };
    await client.query('BEGIN');
    try {
      for (let i = 0; i < sessions.length; i += 500) {
        const chunk = sessions.slice(i, i + 500);
        const ids = await insertBatch('sessions', sessionCols, chunk.map(sessionValues), true);
        chunk.forEach((s, j) => (s.id = ids[j].id));
      }
      let pending = [];
      for (const m of messages) {
        pending.push(msgValues(m));
        if (pending.length === 1000) {
          await insertBatch('messages', msgCols, pending, false);
          messageCount += pending.length;
          pending = [];
        }
      }
      if (pending.length) await insertBatch('messages', msgCols, pending, false);
      messageCount += pending.length;
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    }
    await client.query('ANALYZE');
  }
  const tInserted = performance.now();
  await db.close();
  const seedInfo = {
    seat_id: seat.id,
    group_ids: groupIds,
    chats: sessions.length,
    messages: messageCount,
    big_chat: {
      session_id: big.id,
      send_phone: big.send_phone,
      receiver_phone: big.receiver_phone,
      messages: big.msgs.length,
    },
    medium_chat: {
      session_id: medium.id,
      send_phone: medium.send_phone,
      receiver_phone: medium.receiver_phone,
      messages: medium.msgs.length,
    },
    analyzed: db.kind === 'pg' || opt.analyze,
    pinned: sessions.filter((s) => s.is_top).length,
    unread_chats: sessions.filter((s) => s.un_read_count > 0).length,
    recent_chats: sessions.filter((s) => s.latest_time >= now - DAY).length,
    seconds: {
      cli: round((tCli - t0) / 1000),
      build_rows: round((tBuilt - tCli) / 1000),
      insert: round((tInserted - tBuilt) / 1000),
      total: round((tInserted - t0) / 1000),
    },
  };
  // A pristine message chat (not the big one) of a custom group, for the send benchmark.
  const sendTarget = sessions.find((s) => s.group_id === groupIds['custom:Leads']);
  seedInfo.send_chat = {
    session_id: sendTarget.id,
    send_phone: sendTarget.send_phone,
    receiver_phone: sendTarget.receiver_phone,
  };
  return seedInfo;
}

// ---------------------------------------------------------------------------------------------
// Server process

/** The running server, killed by the global time guard and on Ctrl-C. */
let liveChild = null;

async function startServer(env) {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_MAIN], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  liveChild = child;
  let output = '';
  const onData = (d) => {
    output += d.toString();
    if (output.length > 100_000) output = output.slice(-50_000);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return { child, base, exited, output: () => output };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start within 30 s:\n${output.slice(-4000)}`);
}

async function stopServer(server) {
  if (server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  const code = await Promise.race([server.exited, sleep(10_000).then(() => 'timeout')]);
  if (code === 'timeout') {
    server.child.kill('SIGKILL');
    await server.exited;
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP calls

function makeClient(base) {
  let token = null;
  async function call(name, body) {
    const t0 = performance.now();
    const res = await fetch(`${base}/v1/seat/chat/${name}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const json = await res.json();
    const ms = performance.now() - t0;
    if (json.code !== '000000') {
      throw new Error(`${name} answered ${res.status} ${json.code} ${json.msg}`);
    }
    return { ms, data: json.data };
  }
  return {
    call,
    setToken: (t) => (token = t),
  };
}

/** `count` sequential calls of `make(i)`, stopping early after SCENARIO_TIME_LIMIT_MS. */
async function sequential(name, count, make, extra) {
  const samples = [];
  const cpu0 = serverCpuMs();
  const t0 = performance.now();
  for (let i = 0; i < count && performance.now() - t0 < SCENARIO_TIME_LIMIT_MS; i++) {
    const [call, body] = make(i);
    samples.push((await call(body)).ms);
  }
  const wall = performance.now() - t0;
  const cpu = cpu0 === null ? null : serverCpuMs() - cpu0;
  return summarize(name, samples, wall, { mode: 'sequential', ...extra }, cpu);
}

/** `count` calls with CONCURRENCY workers, bounded in time like `sequential`. */
async function concurrent(name, count, make, extra) {
  const samples = [];
  let next = 0;
  const cpu0 = serverCpuMs();
  const t0 = performance.now();
  async function worker() {
    while (next < count && performance.now() - t0 < SCENARIO_TIME_LIMIT_MS) {
      const i = next++;
      const [call, body] = make(i);
      samples.push((await call(body)).ms);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const wall = performance.now() - t0;
  const cpu = cpu0 === null ? null : serverCpuMs() - cpu0;
  return summarize(name, samples, wall, { mode: `concurrency ${CONCURRENCY}`, ...extra }, cpu);
}

// ---------------------------------------------------------------------------------------------
// Scenarios

async function expectedGroupOrder(db, seatId, groupId, tab) {
  const since = Date.now() - DAY;
  const rows = await db.all(
    `SELECT id FROM sessions WHERE seat_id = ? AND group_id = ? AND latest_time ${tab === 1 ? '>=' : '<'} ?
     ORDER BY is_top DESC, latest_time DESC, id DESC`,
    [seatId, groupId, since],
  );
  return rows.map((r) => Number(r.id));
}

/** Pages through the whole group with next_cursor; checks order, duplicates and gaps. */
async function pageGroup(client, db, seed, groupId, tab, pageSize) {
  const expected = await expectedGroupOrder(db, seed.seat_id, groupId, tab);
  const pageMs = []; // pageMs[pass][page]
  const problems = [];
  const cpu0 = serverCpuMs();
  const t0 = performance.now();
  for (let pass = 0; pass < PAGING_PASSES; pass++) {
    const seen = [];
    const times = [];
    let cursor;
    let total = null;
    const maxPages = Math.ceil(expected.length / pageSize) + 5;
    for (let page = 0; page < maxPages; page++) {
      if (performance.now() - t0 > SCENARIO_TIME_LIMIT_MS * 2) {
        problems.push(`stopped by the time limit at pass ${pass + 1}, page ${page + 1}`);
        break;
      }
      const body = { group_id: groupId, user_time_type: tab, page_size: pageSize };
      if (cursor) body.cursor = cursor;
      const { ms, data } = await client.call('getGroupInfo', body);
      times.push(ms);
      total = data.total;
      for (const item of data.account_list) seen.push(item.session_id);
      cursor = data.next_cursor;
      if (!cursor) break;
    }
    if (cursor) problems.push(`pass ${pass + 1}: still a next_cursor after ${times.length} pages`);
    pageMs.push(times);
    if (pass > 0) continue; // the content checks once; later passes only add timings
    const unique = new Set(seen);
    const dupes = seen.length - unique.size;
    const expectedSet = new Set(expected);
    const missing = expected.filter((id) => !unique.has(id));
    const extra = [...unique].filter((id) => !expectedSet.has(id));
    let orderBreaks = 0;
    for (let i = 0; i < Math.min(seen.length, expected.length); i++) {
      if (seen[i] !== expected[i]) orderBreaks++;
    }
    if (total !== expected.length) problems.push(`total ${total} != expected ${expected.length}`);
    if (dupes) problems.push(`${dupes} duplicate session_id(s) across pages`);
    if (missing.length)
      problems.push(`${missing.length} chat(s) missing (gap), e.g. ${missing[0]}`);
    if (extra.length) problems.push(`${extra.length} chat(s) not in the group/tab`);
    if (!dupes && !missing.length && orderBreaks) {
      problems.push(`${orderBreaks} position(s) out of the documented order`);
    }
  }
  const wall = performance.now() - t0;
  const cpu = serverCpuMs() - cpu0;
  const pages = pageMs[0].length;
  // Depth trend: median per page index over the passes, first vs last tenth of the pages.
  const byPage = Array.from({ length: pages }, (_, i) =>
    median(pageMs.map((p) => p[i]).filter((x) => x !== undefined)),
  );
  const tenth = Math.max(1, Math.floor(pages / 10));
  const mean = (list) => list.reduce((s, x) => s + x, 0) / list.length;
  const firstMean = mean(byPage.slice(0, tenth));
  const lastMean = mean(byPage.slice(-tenth));
  return {
    summary: summarize(
      `getGroupInfo all pages (tab ${tab}, ${expected.length} chats)`,
      pageMs.flat(),
      wall,
      {
        mode: `sequential, ${PAGING_PASSES} pass(es) × ${pages} pages of ${pageSize}`,
        pages,
        chats: expected.length,
        first_pages_ms: round(firstMean),
        last_pages_ms: round(lastMean),
        depth_ratio: round(lastMean / firstMean),
      },
      cpu,
    ),
    problems,
  };
}

/** Pages back CHAT_PAGES_BACK pages from the newest with before_id; checks against the DB. */
async function pageChat(client, db, big, label, pageSize) {
  const expectedRows = await db.all(
    'SELECT id FROM messages WHERE session_id = ? AND deleted_for_me = 0 ORDER BY id DESC LIMIT ?',
    [big.session_id, pageSize * CHAT_PAGES_BACK],
  );
  const expected = expectedRows.map((r) => Number(r.id));
  const problems = [];
  const pageMs = [];
  const cpu0 = serverCpuMs();
  const t0 = performance.now();
  for (let pass = 0; pass < CHAT_PAGING_PASSES; pass++) {
    if (performance.now() - t0 > SCENARIO_TIME_LIMIT_MS) break;
    const seen = [];
    const times = [];
    let before;
    for (let page = 0; page < CHAT_PAGES_BACK; page++) {
      const body = {
        send_phone: big.send_phone,
        receiver_phone: big.receiver_phone,
        page_size: pageSize,
      };
      if (before !== undefined) body.before_id = before;
      const { ms, data } = await client.call('getChatRecord', body);
      times.push(ms);
      // Oldest first within a page; pages go back in time.
      seen.push(...data.list.map((m) => m.msg_id).reverse());
      if (!data.has_more || !data.list.length) break;
      before = data.list[0].msg_id;
    }
    pageMs.push(times);
    if (pass === 0) {
      const dupes = seen.length - new Set(seen).size;
      const mismatch = seen.findIndex((id, i) => id !== expected[i]);
      if (dupes) problems.push(`${dupes} duplicate msg_id(s) across pages`);
      if (seen.length !== expected.length) {
        problems.push(
          `got ${seen.length} messages in ${times.length} pages, expected ${expected.length}`,
        );
      }
      if (mismatch >= 0)
        problems.push(`message #${mismatch} is ${seen[mismatch]}, expected ${expected[mismatch]}`);
    }
  }
  const wall = performance.now() - t0;
  const cpu = serverCpuMs() - cpu0;
  const mean = (list) => list.reduce((s, x) => s + x, 0) / list.length;
  const pages = pageMs[0].length;
  const byPage = Array.from({ length: pages }, (_, i) =>
    median(pageMs.map((p) => p[i]).filter((x) => x !== undefined)),
  );
  const firstMean = mean(byPage.slice(0, 2));
  const lastMean = mean(byPage.slice(-2));
  return {
    summary: summarize(
      `getChatRecord ${label}`,
      pageMs.flat(),
      wall,
      {
        mode: `sequential, ${pageMs.length} pass(es) × ${pages} pages of ${pageSize}`,
        pages,
        first_pages_ms: round(firstMean),
        last_pages_ms: round(lastMean),
        depth_ratio: round(lastMean / firstMean),
      },
      cpu,
    ),
    problems,
  };
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
  const started = new Date();
  const target = opt.pg
    ? { kind: 'pg', url: opt.pg, schema: `parley_bench_${Date.now()}` }
    : { kind: 'sqlite', dataDir: mkdtempSync(path.join(os.tmpdir(), 'parley-bench-')) };
  const env = {
    ...process.env,
    PARLEY_DEMO: 'off',
    LOG_LEVEL: 'warn',
    LOG_PRETTY: '0',
    NODE_ENV: 'production',
  };
  delete env.DATABASE_URL;
  if (target.kind === 'sqlite') {
    env.PARLEY_DATA_DIR = target.dataDir;
    log(`data dir ${target.dataDir}`);
  } else {
    // A fresh schema; the server and CLI reach it through search_path in the URL.
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: target.url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${target.schema}`);
    await admin.end();
    const url = new URL(target.url);
    url.searchParams.set('options', `-c search_path=${target.schema}`);
    env.DATABASE_URL = url.toString();
    env.PARLEY_DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
    log(`PostgreSQL schema ${target.schema}`);
  }

  let server = null;
  let db = null;
  const results = [];
  const problems = [];
  let rss = null;
  let seedInfo;
  let loadBefore = null;
  try {
    seedInfo = await seed(target, env);
    log(
      `seeded ${seedInfo.chats} chats, ${seedInfo.messages} messages in ${seedInfo.seconds.total} s ` +
        `(CLI ${seedInfo.seconds.cli} s, insert ${seedInfo.seconds.insert} s)`,
    );

    server = await startServer(env);
    log(`server pid ${server.child.pid} on ${server.base}`);
    serverPid = server.child.pid;
    const rssIdle = rssOf(server.child.pid);
    loadBefore = os.loadavg()[0];
    db = await openSeedDb(target);
    const client = makeClient(server.base);
    const login = await client.call('login', { account: SEAT.account, password: SEAT.password });
    client.setToken(login.data.token);

    const c = client.call;
    const groupList = (body) => c('getGroupList', body);
    const groupInfo = (body) => c('getGroupInfo', body);
    const chatRecord = (body) => c('getChatRecord', body);
    const send = (body) => c('message', body);
    const biggest = seedInfo.group_ids.ungrouped;
    const big = seedInfo.big_chat;
    const chatBody = { send_phone: big.send_phone, receiver_phone: big.receiver_phone };
    const runId = Date.now().toString(36);
    const sendBody = (prefix) => (i) => [
      send,
      {
        send_phone: seedInfo.send_chat.send_phone,
        receiver_phone: seedInfo.send_chat.receiver_phone,
        type: 'text',
        content: `Benchmark reply ${i}: thanks for waiting, your order is on its way.`,
        client_msg_id: `bench-${runId}-${prefix}-${i}`,
      },
    ];

    // Warm-up (JIT, statement caches, page cache); not measured.
    for (let i = 0; i < 20; i++) {
      await groupList({});
      await groupInfo({ group_id: biggest });
      await chatRecord(chatBody);
    }

    log('getGroupList…');
    results.push(await sequential('getGroupList', SEQ_REQUESTS, () => [groupList, {}]));
    results.push(await concurrent('getGroupList', CONC_REQUESTS, () => [groupList, {}]));
    results.push(
      await sequential('getGroupList reply=1', SEQ_REQUESTS, () => [groupList, { reply: 1 }]),
    );

    log('getGroupInfo first page…');
    for (const tab of [1, 2]) {
      results.push(
        await sequential(`getGroupInfo first page (tab ${tab})`, SEQ_REQUESTS, () => [
          groupInfo,
          { group_id: biggest, user_time_type: tab },
        ]),
      );
    }
    results.push(
      await concurrent('getGroupInfo first page (tab 2)', CONC_REQUESTS, () => [
        groupInfo,
        { group_id: biggest, user_time_type: 2 },
      ]),
    );

    log('getGroupInfo paging through the biggest group…');
    for (const tab of [1, 2]) {
      const r = await pageGroup(client, db, seedInfo, biggest, tab, 50);
      results.push(r.summary);
      problems.push(...r.problems.map((p) => `getGroupInfo tab ${tab}: ${p}`));
    }

    log('getChatRecord on the 50,000-message chat…');
    results.push(
      await sequential('getChatRecord newest page', SEQ_REQUESTS, () => [chatRecord, chatBody]),
    );
    results.push(
      await concurrent('getChatRecord newest page', CONC_REQUESTS, () => [chatRecord, chatBody]),
    );
    const chatPaging = await pageChat(client, db, big, `${CHAT_PAGES_BACK} pages back`, 50);
    results.push(chatPaging.summary);
    problems.push(...chatPaging.problems.map((p) => `getChatRecord: ${p}`));
    const medium = seedInfo.medium_chat;
    const mediumPaging = await pageChat(
      client,
      db,
      medium,
      `${medium.messages}-msg chat, all pages`,
      50,
    );
    results.push(mediumPaging.summary);
    problems.push(...mediumPaging.problems.map((p) => `getChatRecord (medium chat): ${p}`));
    // The oldest end of the chat: a page ~49,000 messages deep (does depth cost anything?).
    const oldest = await db.get(
      'SELECT id FROM messages WHERE session_id = ? ORDER BY id ASC LIMIT 1 OFFSET 100',
      [big.session_id],
    );
    results.push(
      await sequential('getChatRecord oldest page (before_id)', SEQ_REQUESTS, () => [
        chatRecord,
        { ...chatBody, before_id: Number(oldest.id) },
      ]),
    );

    log('message (text send)…');
    results.push(await sequential('message (text send)', SEQ_REQUESTS, sendBody('seq')));
    results.push(await concurrent('message (text send)', CONC_REQUESTS, sendBody('conc')));

    rss = { idle_after_start: rssIdle, after_run: rssOf(server.child.pid) };
  } catch (err) {
    problems.push(`run aborted: ${err.message}`);
    if (server) log(`server output (tail):\n${server.output().slice(-3000)}`);
  } finally {
    if (db) await db.close().catch(() => {});
    if (server) await stopServer(server);
    if (target.kind === 'sqlite' && !opt.keep) {
      rmSync(target.dataDir, { recursive: true, force: true });
    } else if (target.kind === 'pg') {
      rmSync(env.PARLEY_DATA_DIR, { recursive: true, force: true });
      if (!opt.keep) {
        const { default: pg } = await import('pg');
        const admin = new pg.Client({ connectionString: target.url });
        await admin.connect();
        await admin.query(`DROP SCHEMA ${target.schema} CASCADE`);
        await admin.end();
      }
    }
    if (opt.keep) log(`kept ${target.kind === 'sqlite' ? target.dataDir : target.schema}`);
  }

  // Report
  const cpus = os.cpus();
  const machine = {
    cpus: cpus.length,
    cpu_model: cpus[0]?.model ?? 'unknown',
    mem_gb: round(os.totalmem() / 1024 ** 3, 1),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    load_avg_1m_before: round(loadBefore),
    load_avg_1m_after: round(os.loadavg()[0]),
  };
  const header = ['call', 'mode', 'n', 'p50', 'p95', 'p99', 'max', 'req/s', 'cpu/req'];
  const rows = results.map((r) => [
    r.name,
    r.mode.replace(/, \d+ pass.*/, ''),
    String(r.requests),
    String(r.p50_ms),
    String(r.p95_ms),
    String(r.p99_ms),
    String(r.max_ms),
    String(r.req_per_s),
    String(r.server_cpu_ms_per_req),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    '| ' +
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ') +
    ' |';
  console.log(
    `\nParley API latency, ${target.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}` +
      `${seedInfo?.analyzed ? ' (after ANALYZE)' : ''} | ${machine.cpus} CPU(s) ${machine.cpu_model}, ` +
      `Node ${machine.node}, load avg ${machine.load_avg_1m_before} → ${machine.load_avg_1m_after} ` +
      '| times and server CPU per request in ms',
  );
  if (seedInfo) {
    console.log(
      `workspace: ${seedInfo.chats} chats (${seedInfo.pinned} pinned, ${seedInfo.unread_chats} unread, ` +
        `${seedInfo.recent_chats} in tab 1), ${seedInfo.messages} messages, biggest chat ` +
        `${seedInfo.big_chat.messages}; seeded in ${seedInfo.seconds.total} s`,
    );
  }
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(r));
  for (const r of results.filter((x) => x.depth_ratio !== undefined)) {
    console.log(
      `${r.name}: ${r.pages} pages, first pages ${r.first_pages_ms} ms vs last pages ` +
        `${r.last_pages_ms} ms (ratio ${r.depth_ratio})`,
    );
  }
  if (rss) {
    console.log(
      `server RSS: ${rss.idle_after_start.vm_rss_mb} MB after start, ${rss.after_run.vm_rss_mb} MB ` +
        `after the run (peak ${rss.after_run.vm_hwm_mb} MB)`,
    );
  }
  const slow = results.filter((r) => r.name.startsWith('getGroupInfo') && r.p99_ms > 50);
  for (const r of slow) {
    console.log(`WARNING: ${r.name} (${r.mode}) p99 ${r.p99_ms} ms > 50 ms`);
  }
  const grows = (x) => x.depth_ratio > 1.5 && x.last_pages_ms - x.first_pages_ms > 1;
  for (const r of results.filter(grows)) {
    console.log(`WARNING: ${r.name}: per-page time grows with depth (×${r.depth_ratio})`);
  }
  for (const p of problems) fail(p);

  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(
    RESULTS_DIR,
    `api-latency-${started.toISOString().slice(0, 10)}${target.kind === 'pg' ? '-pg' : ''}${
      opt.analyze ? '-analyze' : ''
    }.json`,
  );
  const report = {
    benchmark: 'api-latency',
    started_at: started.toISOString(),
    database: target.kind,
    git_commit: gitCommit(),
    machine,
    workspace: seedInfo ?? null,
    server_rss: rss,
    results,
    problems,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(ROOT, file)}`);
}

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

const guard = setTimeout(() => {
  console.error(`ERROR: the benchmark exceeded ${GLOBAL_TIMEOUT_MS / 60_000} minutes; aborting`);
  liveChild?.kill('SIGKILL');
  process.exit(1);
}, GLOBAL_TIMEOUT_MS);
guard.unref();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    liveChild?.kill('SIGKILL');
    process.exit(130);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
