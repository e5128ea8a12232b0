// The large workspace the benchmarks share (see bench/README.md): seeding, and the built
// server's process. Used by api-latency.mjs and ui-render.mjs.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SERVER_MAIN = path.join(ROOT, 'apps/server/dist/main.js');
export const CLI_MAIN = path.join(ROOT, 'apps/server/dist/cli/main.js');

export const SEAT = { account: 'bench', password: 'bench-password-1', nickname: 'Bench operator' };
export const SEND_PHONES = ['+15550200001', '+15550200002', '+15550200003', '+15550200004'];
/** Chats per group; the biggest (Ungrouped) is the one paged through. Sum: 10,000. */
export const GROUP_SIZES = [
  { key: 'ungrouped', chats: 5500 },
  { key: 'custom:VIP', chats: 1000 },
  { key: 'custom:Leads', chats: 1500 },
  { key: 'custom:Follow-up', chats: 1000 },
  { key: 'tg_link_pushed', chats: 500 },
  { key: 'blocked', chats: 500 },
];
/** The message columns the seed (and sends.mjs's raw loop) writes. */
export const MESSAGE_COLUMNS = [
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
export const BIG_CHAT_MESSAGES = 50_000;
export const MEDIUM_CHAT_MESSAGES = 1_000; // a chat of a custom group, paged back to its start
export const OTHER_MESSAGES_PER_CHAT = 15; // 9,998 × 15 + 50,000 + 1,000 ≈ 201,000
export const RECENT_SHARE = 0.3; // chats active in the last 24 h (user_time_type 1)
export const PINNED_SHARE = 0.02;
export const UNREAD_SHARE = 0.3;
export const HOUR = 3600_000;
export const DAY = 24 * HOUR;
export const MINUTE = 60_000;

export function log(line) {
  process.stderr.write(`[bench] ${line}\n`);
}

/** Deterministic PRNG (mulberry32) so every run seeds the same workspace. */
export function prng(seed) {
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

export function round(n, digits = 2) {
  return n === null || n === undefined ? null : Number(n.toFixed(digits));
}

export function freePort() {
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

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Nearest-rank percentile of an ascending list (null when empty). */
export function percentile(sorted, p) {
  if (!sorted.length) return null;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

/** CPU time (user + system, ms; 10 ms resolution) a process has used, from /proc/<pid>/stat. */
export function cpuMsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime in USER_HZ (100)
  } catch {
    return null;
  }
}

export function rssOf(pid) {
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

/** Exits with a clear message when the server has not been built. */
export function requireBuild(script) {
  if (!existsSync(SERVER_MAIN) || !existsSync(CLI_MAIN)) {
    console.error(
      `apps/server/dist is missing (${path.relative(ROOT, SERVER_MAIN)}).\n` +
        'This benchmark runs the built server: run `npm run build` first, then\n' +
        `  node bench/${script}`,
    );
    process.exit(1);
  }
}

/**
 * A fresh target: a temp SQLite data dir, or a fresh schema of the PostgreSQL at `pgUrl`,
 * with the environment the server and the CLI need to reach it.
 */
export async function createTarget(pgUrl) {
  const target = pgUrl
    ? { kind: 'pg', url: pgUrl, schema: `parley_bench_${Date.now()}` }
    : { kind: 'sqlite', dataDir: mkdtempSync(path.join(os.tmpdir(), 'parley-bench-')) };
  const env = {
    ...process.env,
    PARLEY_DEMO: 'off',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
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
  return { target, env };
}

// Database access (SQLite via better-sqlite3, or PostgreSQL via pg) for seeding and checks

export async function openSeedDb(target) {
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

export function runCli(args, env) {
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
export function buildWorkspace(seatId, groupIds, now) {
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

export async function seed(target, env, { analyze = false } = {}) {
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
  const msgCols = MESSAGE_COLUMNS;
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
    if (analyze) sqlite.exec('ANALYZE');
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
    analyzed: db.kind === 'pg' || analyze,
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
/** Kills the running server at once (time guard, Ctrl-C). */
export function killLiveServer() {
  liveChild?.kill('SIGKILL');
}

/** Aborts the run after `timeoutMs`, and stops the server on Ctrl-C, whatever is running. */
export function guardBenchmark(timeoutMs) {
  const guard = setTimeout(() => {
    console.error(`ERROR: the benchmark exceeded ${timeoutMs / 60_000} minutes; aborting`);
    killLiveServer();
    process.exit(1);
  }, timeoutMs);
  guard.unref();
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      killLiveServer();
      process.exit(130);
    });
  }
}

export async function startServer(env) {
  const port = await freePort();
  // PARLEY_BENCH_PROFILE=<dir>: the server writes a V8 CPU profile there when it stops.
  const profile = process.env.PARLEY_BENCH_PROFILE;
  const args = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, SERVER_MAIN] : [SERVER_MAIN];
  const child = spawn(process.execPath, args, {
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

/** SIGTERM, then SIGKILL after `graceMs` (a server writing a CPU profile needs longer). */
export async function stopServer(server, graceMs = 10_000) {
  if (server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  const code = await Promise.race([server.exited, sleep(graceMs).then(() => 'timeout')]);
  if (code === 'timeout') {
    server.child.kill('SIGKILL');
    await server.exited;
  }
}

/** Removes a target made by createTarget (unless `keep`: then says where it is). */
export async function dropTarget(target, env, keep = false) {
  if (target.kind === 'sqlite') {
    if (!keep) rmSync(target.dataDir, { recursive: true, force: true });
    else log(`kept ${target.dataDir}`);
    return;
  }
  rmSync(env.PARLEY_DATA_DIR, { recursive: true, force: true });
  if (keep) return log(`kept schema ${target.schema}`);
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: target.url });
  await admin.connect();
  await admin.query(`DROP SCHEMA ${target.schema} CASCADE`);
  await admin.end();
}

/** The checkout's commit, for the results file. */
export function gitCommit() {
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

/**
 * Runs a benchmark's `main`: stops the server and exits 1 past `minutes`, stops it on Ctrl-C,
 * and exits 1 when `main` throws.
 */
export function runBench(main, minutes) {
  guardBenchmark(minutes * 60_000);
  main().catch((err) => {
    console.error(err);
    killLiveServer();
    process.exit(1);
  });
}
