#!/usr/bin/env node
// Message search and address book latency on a database of 1,000,000 messages
// (see bench/README.md).
//
//   npm run build && node bench/search-latency.mjs [--keep] [--quick] [--messages N] [--pg <url>]
//
// Seeds a fresh temp data dir (five seats, 10,000 chats, 1,000,000 messages in four languages),
// starts the built server on a free loopback port, measures searchMessage and addressBook over
// HTTP, checks the answers against the database, and stops the server.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gitCommit } from './lib/workspace.mjs';
import { MESSAGE_COLUMNS, SESSION_COLUMNS } from './lib/bulk-load.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_MAIN = path.join(ROOT, 'apps/server/dist/main.js');
const CLI_MAIN = path.join(ROOT, 'apps/server/dist/cli/main.js');
const RESULTS_DIR = path.join(ROOT, 'bench/results');

// ---------------------------------------------------------------------------------------------
// Options and sizes

const argv = process.argv.slice(2);
const opt = { keep: false, quick: false, pg: null, messages: 1_000_000 };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--keep') opt.keep = true;
  else if (a === '--quick') opt.quick = true;
  else if (a === '--pg') opt.pg = argv[++i] ?? null;
  else if (a.startsWith('--pg=')) opt.pg = a.slice(5);
  else if (a === '--messages') opt.messages = Number(argv[++i]);
  else if (a === '--help' || a === '-h') {
    console.log(
      'usage: node bench/search-latency.mjs [--keep] [--quick] [--messages N] [--pg <postgres-url>]',
    );
    process.exit(0);
  } else {
    console.error(`unknown argument ${a} (see --help)`);
    process.exit(2);
  }
}
if (argv.includes('--pg') && !opt.pg) {
  console.error('--pg needs a postgres:// URL');
  process.exit(2);
}
if (!Number.isInteger(opt.messages) || opt.messages < 10_000) {
  console.error('--messages needs an integer of at least 10000');
  process.exit(2);
}

/** The measured seat (two accounts, 4,000 chats) and four others sharing the database. */
const SEATS = [
  { account: 'bench', phones: ['+15550300001', '+15550300002'], chats: 4000 },
  { account: 'other1', phones: ['+15550300011'], chats: 1500 },
  { account: 'other2', phones: ['+15550300012'], chats: 1500 },
  { account: 'other3', phones: ['+15550300013'], chats: 1500 },
  { account: 'other4', phones: ['+15550300014'], chats: 1500 },
];
const PASSWORD = 'bench-password-1';
/** Share of all messages in the measured seat's chats (its share of the chats). */
const MAIN_SHARE = 0.4;

/** Planted words and how often they occur; the checks below rely on these. */
const WORDS = {
  rare: 'kumquat-7781', // 25 messages of the measured seat (and 25 of other seats)
  medium: 'tracking-code', // 1 % of all messages
  otherSeatsOnly: 'papaya-contract', // 5 % of the other seats' messages, none of ours
  common: 'thank you', // in ~1/9 of the texts
  noHitCommonTrigrams: 'thank you parcel', // every trigram is common, the phrase never occurs
  cyrillicUpper: 'СПАСИБО ЗА', // the texts have "спасибо за"
  cjk: '订单什么时候',
};
const RARE_MAIN = 25;

const N = opt.quick ? 0.25 : 1;
const SEQ_REQUESTS = Math.round(200 * N);
const CONC_REQUESTS = Math.round(400 * N);
const CONCURRENCY = 8;
const SCENARIO_TIME_LIMIT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 20_000;
const GLOBAL_TIMEOUT_MS = 30 * 60_000;
const MINUTE = 60_000;

// ---------------------------------------------------------------------------------------------
// Helpers (as in api-latency.mjs)

const log = (line) => process.stderr.write(`[bench] ${line}\n`);
const problems = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
const round = (n, d = 2) => (n === null || n === undefined ? null : Number(n.toFixed(d)));

let serverPid = null;
function serverCpuMs() {
  if (!serverPid) return null;
  try {
    const stat = readFileSync(`/proc/${serverPid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return null;
  }
}

function summarize(name, mode, samples, wallMs, cpuMs, extra = {}) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    name,
    mode,
    requests: sorted.length,
    p50_ms: round(percentile(sorted, 50)),
    p95_ms: round(percentile(sorted, 95)),
    p99_ms: round(percentile(sorted, 99)),
    max_ms: round(sorted.at(-1) ?? null),
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

if (!existsSync(SERVER_MAIN) || !existsSync(CLI_MAIN)) {
  console.error('apps/server/dist is missing: run `npm run build` first.');
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// The texts: templates in four languages with numbers, so the trigrams vary like real chats

const CITIES = ['Lisbon', 'Porto', 'Moscow', 'Kazan', 'Shanghai', 'Shenzhen', 'London', 'Recife'];
const TEMPLATES = [
  (r) => `Hello, I have a question about my order ${r.int(10000, 99999)}`,
  (r) => `Could you share the order number please? It starts with ${r.int(100, 999)}`,
  (r) => `The parcel ${r.int(1000, 9999)}-${r.int(10, 99)} has not arrived yet`,
  (r) => `It left the warehouse in ${r.pick(CITIES)}, it should arrive tomorrow`,
  () => 'Great, thank you for the quick answer',
  (r) => `Can I change the delivery address to ${r.pick(CITIES)}?`,
  (r) => `Please send the invoice to client${r.int(1, 9999)}@example.com`,
  (r) => `We ship to ${r.pick(CITIES)} in ${r.int(2, 9)} working days, thank you for waiting`,
  (r) => `Olá, quando chega a minha encomenda ${r.int(10000, 99999)}?`,
  () => 'Obrigado pela ajuda, tenha um bom dia',
  (r) => `A fatura ${r.int(100, 999)} já foi paga ontem`,
  (r) => `Здравствуйте, где мой заказ ${r.int(10000, 99999)}?`,
  () => 'спасибо за быстрый ответ',
  (r) => `Доставка в ${r.pick(['Москву', 'Казань', 'Самару'])} займёт ${r.int(2, 9)} дней`,
  (r) => `你好，我的订单什么时候到？编号${r.int(10000, 99999)}`,
  () => '谢谢你的帮助，祝你愉快',
  (r) => `包裹已经从${r.pick(['上海', '深圳', '广州'])}发出了`,
  (r) => `Is there a discount for orders above ${r.int(50, 500)} units?`,
];

// ---------------------------------------------------------------------------------------------
// Database access for seeding and for the checks

async function openSeedDb(target) {
  if (target.kind === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(path.join(target.dataDir, 'parley.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    return {
      kind: 'sqlite',
      all: async (q, p = []) => db.prepare(q).all(...p),
      get: async (q, p = []) => db.prepare(q).get(...p),
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
    all: async (q, p = []) => (await client.query(toPg(q), p)).rows,
    get: async (q, p = []) => (await client.query(toPg(q), p)).rows[0],
    raw: client,
    close: async () => client.end(),
  };
}

const SESSION_COLS = SESSION_COLUMNS;
const MSG_COLS = MESSAGE_COLUMNS;

/**
 * Seeds the seats with the CLI (migrations, passwords, built-in groups the real way), then the
 * chats and messages directly. The text index is built once after the bulk insert — the
 * insert trigger (SQLite) or the GIN index (PostgreSQL) is dropped and recreated from its own
 * stored definition — because maintaining it row by row would make seeding take many minutes;
 * the `message` scenario measures the per-row cost.
 */
async function seed(target, env) {
  const t0 = performance.now();
  log(`creating ${SEATS.length} seats with the CLI…`);
  for (const s of SEATS) {
    runCli(['seat:create', s.account, '--password', PASSWORD, '--nickname', s.account], env);
    for (const phone of s.phones) {
      runCli(['account:add', phone], env);
      runCli(['account:assign', phone, s.account], env);
    }
  }
  const tCli = performance.now();
  const db = await openSeedDb(target);
  const rnd = prng(20261123);
  const now = Date.now();
  const start = now - 365 * 24 * 60 * MINUTE;

  // Chats: receiver numbers interleaved between seats; every tenth has a remark.
  const sessions = [];
  let n = 0;
  for (const s of SEATS) {
    const seat = await db.get('SELECT id FROM seats WHERE account = ?', [s.account]);
    const group = await db.get('SELECT id FROM seat_groups WHERE seat_id = ? AND type = ?', [
      seat.id,
      'ungrouped',
    ]);
    s.id = seat.id;
    for (let i = 0; i < s.chats; i++) {
      n++;
      sessions.push({
        seat: s,
        values: [
          seat.id,
          s.phones[i % s.phones.length],
          `+1888${String(rnd.int(0, 9_999_999)).padStart(7, '0')}${String(n).padStart(5, '0')}`,
          group.id,
          0,
          i % 10 === 0 ? `customer ${s.account} ${i}` : '',
          0,
          start,
          now,
          'in',
          'hello',
          'text',
          0,
        ],
      });
    }
  }
  const mainSessions = sessions.filter((x) => x.seat === SEATS[0]);
  const otherSessions = sessions.filter((x) => x.seat !== SEATS[0]);

  const total = opt.messages;
  const rarePositions = new Set();
  while (rarePositions.size < RARE_MAIN * 2) rarePositions.add(rnd.int(0, total - 1));
  const rareList = [...rarePositions];
  const rareMain = new Set(rareList.slice(0, RARE_MAIN));
  const step = Math.floor((now - start) / total);
  /** The k-th message in time order (ids follow time across chats, as in production). */
  function message(k) {
    const main = rareMain.has(k) || (!rarePositions.has(k) && rnd.chance(MAIN_SHARE));
    const session = main ? rnd.pick(mainSessions) : rnd.pick(otherSessions);
    let content = rnd.pick(TEMPLATES)(rnd);
    if (rarePositions.has(k)) content = `Reference ${WORDS.rare} for the ${content}`;
    else if (rnd.chance(0.01)) content = `${content} (${WORDS.medium} ${rnd.int(100, 999)})`;
    else if (!main && rnd.chance(0.05)) content = `${content}, see ${WORDS.otherSeatsOnly}`;
    return [
      session.id,
      session.seat.id,
      rnd.chance(0.5) ? 'in' : 'out',
      'text',
      content,
      'read',
      start + k * step,
      0,
      0,
    ];
  }

  if (db.kind === 'sqlite') {
    const sqlite = db.raw;
    const insS = sqlite.prepare(
      `INSERT INTO sessions (${SESSION_COLS.join(', ')}) VALUES (${SESSION_COLS.map(() => '?').join(', ')})`,
    );
    const insM = sqlite.prepare(
      `INSERT INTO messages (${MSG_COLS.join(', ')}) VALUES (${MSG_COLS.map(() => '?').join(', ')})`,
    );
    const trigger = sqlite
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?")
      .get('messages_fts_insert');
    if (!trigger) throw new Error('messages_fts_insert is missing: is migration 006 built?');
    sqlite.exec('DROP TRIGGER messages_fts_insert');
    sqlite.transaction(() => {
      for (const s of sessions) s.id = Number(insS.run(...s.values).lastInsertRowid);
      for (let k = 0; k < total; k++) insM.run(...message(k));
    })();
    log('building the FTS5 trigram index…');
    sqlite.exec("INSERT INTO messages_fts (messages_fts) VALUES ('rebuild')");
    sqlite.exec(trigger.sql);
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
  } else {
    const client = db.raw;
    const idx = await db.get(
      "SELECT pg_get_indexdef(c.oid) AS def FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE c.relname = 'messages_content_trgm_idx' AND s.nspname = ?",
      [target.schema],
    );
    if (!idx) throw new Error('messages_content_trgm_idx is missing: is migration 006 built?');
    await client.query('DROP INDEX messages_content_trgm_idx');
    const insert = async (table, cols, rows, returning) => {
      const params = [];
      const tuples = rows.map((r) => {
        const base = params.length;
        params.push(...r);
        return `(${r.map((_, i) => `$${base + i + 1}`).join(', ')})`;
      });
      const q = `INSERT INTO ${table} (${cols.join(', ')}) VALUES ${tuples.join(', ')}${returning ? ' RETURNING id' : ''}`;
      return (await client.query(q, params)).rows;
    };
    for (let i = 0; i < sessions.length; i += 1000) {
      const chunk = sessions.slice(i, i + 1000);
      const ids = await insert(
        'sessions',
        SESSION_COLS,
        chunk.map((s) => s.values),
        true,
      );
      chunk.forEach((s, j) => (s.id = ids[j].id));
    }
    let batch = [];
    for (let k = 0; k < total; k++) {
      batch.push(message(k));
      if (batch.length === 2000) {
        await insert('messages', MSG_COLS, batch, false);
        batch = [];
      }
      if (k % 200_000 === 0 && k) log(`  ${k} messages…`);
    }
    if (batch.length) await insert('messages', MSG_COLS, batch, false);
    log('building the GIN trigram index…');
    await client.query("SET maintenance_work_mem = '256MB'");
    await client.query(idx.def);
    await client.query('VACUUM ANALYZE messages');
    await client.query('ANALYZE sessions');
  }
  const tDone = performance.now();
  await db.close();
  return {
    seats: SEATS.map((s) => ({ account: s.account, seat_id: s.id, chats: s.chats })),
    chats: sessions.length,
    messages: total,
    seconds: { cli: round((tCli - t0) / 1000), total: round((tDone - t0) / 1000) },
  };
}

// ---------------------------------------------------------------------------------------------
// Server and HTTP

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
  const onData = (d) => (output = (output + d.toString()).slice(-50_000));
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return { child, base, exited, output: () => output };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start:\n${output.slice(-4000)}`);
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

function makeClient(base) {
  let token = null;
  async function call(name, body) {
    const t0 = performance.now();
    const res = await fetch(`${base}/v1/seat/chat/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const json = await res.json();
    const ms = performance.now() - t0;
    if (json.code !== '000000') throw new Error(`${name} answered ${json.code} ${json.msg}`);
    return { ms, data: json.data };
  }
  return { call, setToken: (t) => (token = t) };
}

async function measure(name, mode, count, concurrency, make, extra) {
  const samples = [];
  let next = 0;
  const cpu0 = serverCpuMs();
  const t0 = performance.now();
  async function worker() {
    while (next < count && performance.now() - t0 < SCENARIO_TIME_LIMIT_MS) {
      const [fn, body] = make(next++);
      samples.push((await fn(body)).ms);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wall = performance.now() - t0;
  const cpu = cpu0 === null ? null : serverCpuMs() - cpu0;
  return summarize(name, mode, samples, wall, cpu, extra);
}

// ---------------------------------------------------------------------------------------------
// Checks against the database

/** The measured seat's shown messages containing `word` (case-sensitive scan; test words are). */
async function expectedHits(db, seatId, word) {
  const q =
    db.kind === 'sqlite'
      ? 'SELECT id FROM messages WHERE seat_id = ? AND instr(content, ?) > 0 AND deleted_for_me = 0 AND deleted_for_all = 0 ORDER BY id DESC'
      : 'SELECT id FROM messages WHERE seat_id = ? AND strpos(content, ?) > 0 AND deleted_for_me = 0 AND deleted_for_all = 0 ORDER BY id DESC';
  return (await db.all(q, [seatId, word])).map((r) => Number(r.id));
}

/** Walks up to `maxPages` pages; returns the ids in order and the per-page times. */
async function walkSearch(call, keyword, pageSize, maxPages) {
  const ids = [];
  const times = [];
  const phones = new Set();
  let cursor = null;
  for (let p = 0; p < maxPages; p++) {
    const { ms, data } = await call('searchMessage', {
      keyword,
      page_size: pageSize,
      ...(cursor ? { cursor } : {}),
    });
    times.push(ms);
    for (const h of data.list) {
      ids.push(h.message.msg_id);
      phones.add(h.session.send_phone);
    }
    cursor = data.next_cursor;
    if (!cursor) break;
  }
  return { ids, times, phones, cursor };
}

function compare(label, got, expected) {
  const dupes = got.length - new Set(got).size;
  if (dupes) problems.push(`${label}: ${dupes} repeated hit(s)`);
  const mismatch = got.findIndex((id, i) => id !== expected[i]);
  if (mismatch >= 0) {
    problems.push(`${label}: hit #${mismatch} is ${got[mismatch]}, expected ${expected[mismatch]}`);
  }
  if (got.length !== expected.length) {
    problems.push(`${label}: ${got.length} hits, expected ${expected.length}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
  const started = new Date();
  const target = opt.pg
    ? pgTarget(opt.pg, `parley_search_bench_${Date.now()}`)
    : { kind: 'sqlite', dataDir: mkdtempSync(path.join(os.tmpdir(), 'parley-bench-')) };
  const env = { ...process.env, PARLEY_DEMO: 'off', LOG_LEVEL: 'warn', LOG_FORMAT: 'json' };
  delete env.DATABASE_URL;
  if (target.kind === 'sqlite') {
    env.PARLEY_DATA_DIR = target.dataDir;
    log(`data dir ${target.dataDir}`);
  } else {
    // A database of its own rather than a schema: the migrator looks for its tables in every
    // schema, so test suites migrating other schemas of the same database at the same time
    // would confuse it.
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: target.adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${target.database}`);
    await admin.end();
    env.DATABASE_URL = target.url;
    env.PARLEY_DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
    log(`PostgreSQL database ${target.database}`);
  }

  const results = [];
  let server = null;
  let db = null;
  let seedInfo = null;
  let loadBefore = null;
  try {
    seedInfo = await seed(target, env);
    log(
      `seeded ${seedInfo.chats} chats, ${seedInfo.messages} messages in ${seedInfo.seconds.total} s`,
    );
    server = await startServer(env);
    serverPid = server.child.pid;
    loadBefore = os.loadavg()[0];
    db = await openSeedDb(target);
    const client = makeClient(server.base);
    const login = await client.call('login', { account: 'bench', password: PASSWORD });
    client.setToken(login.data.token);
    const c = client.call;
    const search = (body) => c('searchMessage', body);
    const book = (body) => c('addressBook', body);
    const mainSeat = seedInfo.seats[0].seat_id;
    const ourPhones = new Set(SEATS[0].phones);

    // Correctness first (also warms the caches).
    log('checking answers against the database…');
    const rareExpected = await expectedHits(db, mainSeat, WORDS.rare);
    if (rareExpected.length !== RARE_MAIN) {
      problems.push(`seeding: ${rareExpected.length} rare hits, expected ${RARE_MAIN}`);
    }
    const rare = await walkSearch(c, WORDS.rare, 10, 10);
    compare(`search "${WORDS.rare}" (all pages of 10)`, rare.ids, rareExpected);
    const mediumExpected = await expectedHits(db, mainSeat, WORDS.medium);
    const medium = await walkSearch(c, WORDS.medium, 30, 10);
    compare(`search "${WORDS.medium}" (10 pages of 30)`, medium.ids, mediumExpected.slice(0, 300));
    for (const r of [rare, medium]) {
      for (const phone of r.phones) {
        if (!ourPhones.has(phone)) problems.push(`a hit of another seat's account ${phone}`);
      }
    }
    const others = await search({ keyword: WORDS.otherSeatsOnly });
    if (others.data.list.length) problems.push(`"${WORDS.otherSeatsOnly}" found in our seat`);
    const none = await search({ keyword: WORDS.noHitCommonTrigrams });
    if (none.data.list.length) problems.push(`"${WORDS.noHitCommonTrigrams}" found something`);
    const ru = await search({ keyword: WORDS.cyrillicUpper });
    if (ru.data.list.length !== 30) problems.push('Cyrillic case-insensitive search: no full page');

    const hitCounts = {
      rare: rareExpected.length,
      medium: mediumExpected.length,
      common: (await expectedHits(db, mainSeat, WORDS.common)).length,
    };
    log(`hits in the measured seat: ${JSON.stringify(hitCounts)}`);

    // The cursor of page 21 of the common phrase.
    const deepCursor = (await walkSearch(c, WORDS.common, 30, 20)).cursor;

    const seq = (name, body, extra) =>
      measure(name, 'sequential', SEQ_REQUESTS, 1, () => [search, body], extra);
    log('searchMessage…');
    results.push(
      await seq(`rare word (${hitCounts.rare} hits), first page`, { keyword: WORDS.rare }),
    );
    results.push(
      await measure(
        `rare word, first page`,
        `concurrency ${CONCURRENCY}`,
        CONC_REQUESTS,
        CONCURRENCY,
        () => [search, { keyword: WORDS.rare }],
      ),
    );
    results.push(
      await seq(`1 % word (${hitCounts.medium} hits), first page`, { keyword: WORDS.medium }),
    );
    results.push(
      await seq(`common phrase (${hitCounts.common} hits), first page`, { keyword: WORDS.common }),
    );
    results.push(
      await measure(
        'common phrase, first page',
        `concurrency ${CONCURRENCY}`,
        CONC_REQUESTS,
        CONCURRENCY,
        () => [search, { keyword: WORDS.common }],
      ),
    );
    results.push(
      await seq('common phrase, page 21 (cursor)', { keyword: WORDS.common, cursor: deepCursor }),
    );
    results.push(await seq('no hit, every trigram common', { keyword: WORDS.noHitCommonTrigrams }));
    results.push(
      await seq('word in 5 % of other seats’ messages, 0 of ours', {
        keyword: WORDS.otherSeatsOnly,
      }),
    );
    results.push(await seq('Cyrillic, other case', { keyword: WORDS.cyrillicUpper }));
    results.push(await seq('Chinese', { keyword: WORDS.cjk }));
    const walk = await (async () => {
      const cpu0 = serverCpuMs();
      const t0 = performance.now();
      const times = [];
      for (let pass = 0; pass < 3; pass++)
        times.push(...(await walkSearch(c, WORDS.medium, 30, 10)).times);
      return summarize(
        '1 % word, pages 1-10',
        'sequential, 3 passes',
        times,
        performance.now() - t0,
        serverCpuMs() - cpu0,
      );
    })();
    results.push(walk);

    log('addressBook…');
    const bookExpected = (
      await db.all('SELECT id FROM sessions WHERE seat_id = ? ORDER BY receiver_phone, id', [
        mainSeat,
      ])
    ).map((r) => Number(r.id));
    const bookTimes = [];
    const bookIds = [];
    let cursor = null;
    const cpuB = serverCpuMs();
    const tB = performance.now();
    for (let p = 0; p < 100; p++) {
      const { ms, data } = await book({ page_size: 200, ...(cursor ? { cursor } : {}) });
      bookTimes.push(ms);
      bookIds.push(...data.list.map((e) => e.session_id));
      if (data.total !== bookExpected.length) problems.push(`addressBook total ${data.total}`);
      cursor = data.next_cursor;
      if (!cursor) break;
    }
    compare('addressBook all pages', bookIds, bookExpected);
    results.push(
      await measure('addressBook first page', 'sequential', SEQ_REQUESTS, 1, () => [book, {}], {}),
    );
    results.push(
      summarize(
        `addressBook all pages (${bookExpected.length} chats)`,
        `sequential, ${bookTimes.length} pages of 200`,
        bookTimes,
        performance.now() - tB,
        serverCpuMs() - cpuB,
      ),
    );
    results.push(
      await measure('addressBook keyword (remark)', 'sequential', SEQ_REQUESTS, 1, () => [
        book,
        { keyword: 'customer bench 12' },
      ]),
    );
    results.push(
      await measure('addressBook keyword (number)', 'sequential', SEQ_REQUESTS, 1, () => [
        book,
        { keyword: '00042' },
      ]),
    );

    log('message (a send updates the text index)…');
    const chat = await db.get(
      'SELECT send_phone, receiver_phone FROM sessions WHERE seat_id = ? ORDER BY id LIMIT 1',
      [mainSeat],
    );
    const runId = Date.now().toString(36);
    results.push(
      await measure('message (text send)', 'sequential', SEQ_REQUESTS, 1, (i) => [
        (body) => c('message', body),
        {
          send_phone: chat.send_phone,
          receiver_phone: chat.receiver_phone,
          content: `Benchmark reply ${i}: thank you, your order is on its way`,
          client_msg_id: `bench-${runId}-${i}`,
        },
      ]),
    );
  } catch (err) {
    problems.push(`run aborted: ${err.message}`);
    if (server) log(`server output (tail):\n${server.output().slice(-3000)}`);
  } finally {
    if (db) await db.close().catch(() => {});
    if (server) await stopServer(server);
    if (target.kind === 'sqlite' && !opt.keep)
      rmSync(target.dataDir, { recursive: true, force: true });
    if (target.kind === 'pg') {
      rmSync(env.PARLEY_DATA_DIR, { recursive: true, force: true });
      if (!opt.keep) {
        const { default: pg } = await import('pg');
        const admin = new pg.Client({ connectionString: target.adminUrl });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${target.database}`);
        await admin.end();
      }
    }
    if (opt.keep) log(`kept ${target.kind === 'sqlite' ? target.dataDir : target.database}`);
  }

  const cpus = os.cpus();
  const machine = {
    cpus: cpus.length,
    cpu_model: cpus[0]?.model ?? 'unknown',
    node: process.version,
    load_avg_1m_before: round(loadBefore),
    load_avg_1m_after: round(os.loadavg()[0]),
  };
  const header = ['scenario', 'mode', 'n', 'p50', 'p95', 'p99', 'max', 'req/s', 'cpu/req'];
  const rows = results.map((r) => [
    r.name,
    r.mode,
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
    `| ${cells.map((v, i) => (i < 2 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join(' | ')} |`;
  console.log(
    `\nParley search latency, ${target.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ` +
      `${machine.cpus} CPU(s) ${machine.cpu_model}, Node ${machine.node}, load avg ` +
      `${machine.load_avg_1m_before} → ${machine.load_avg_1m_after} | ms`,
  );
  if (seedInfo) {
    console.log(
      `database: ${seedInfo.messages} messages, ${seedInfo.chats} chats, ${SEATS.length} seats ` +
        `(measured seat: ${SEATS[0].chats} chats, ~${Math.round(MAIN_SHARE * 100)} % of the messages); ` +
        `seeded in ${seedInfo.seconds.total} s`,
    );
  }
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(r));
  for (const p of problems) {
    console.error(`ERROR: ${p}`);
    process.exitCode = 1;
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(
    RESULTS_DIR,
    `search-latency-${started.toISOString().slice(0, 10)}${target.kind === 'pg' ? '-pg' : ''}.json`,
  );
  writeFileSync(
    file,
    `${JSON.stringify({ benchmark: 'search-latency', started_at: started.toISOString(), database: target.kind, git_commit: gitCommit(), machine, database_size: seedInfo, words: WORDS, results, problems }, null, 2)}\n`,
  );
  console.log(`\nwrote ${path.relative(ROOT, file)}`);
}

/** The fresh database next to the one of `adminUrl` (same server and credentials). */
function pgTarget(adminUrl, database) {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return { kind: 'pg', adminUrl, database, url: url.toString(), schema: 'public' };
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
