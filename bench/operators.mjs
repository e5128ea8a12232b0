#!/usr/bin/env node
// Active operators on one box (see bench/README.md, "operators.mjs"): N consoles, each with a
// push socket, the group list every 10 s, a chat read every 5 s and a text sent every 20 s,
// while customers write in through the platform's signed webhook.
//
//   npm run build && node bench/operators.mjs [--n 250,500,1000,1500,2000] [--seconds 60]
//     [--ramp 15] [--workers 2] [--chats 30] [--messages 5] [--inbound-every 60] [--aligned]
//     [--storm] [--nice] [--timeout 50] [--profile] [--quick] [--keep] [--pg <postgres-url>]
//     [--server-env NAME=value]... [--server-log <dir>] [--suffix <name>] [--teams 50x20]
//
// --teams TxM: after the one-seat runs, a phase of T team accounts of M member seats each (one
// console per member, automatic routing; issue 35): the members' chats are chats of their team's
// number they hold, half the customers' messages open new chats that routing hands to a member.
// Its p99 per call is set beside the one-seat run of the same N of this invocation, and the
// server's routing time is read from its /metrics (parley_team_routing_seconds).
//
// The server is the built one with its production defaults (rate limits included): each console
// logs in once, for real, from its own loopback address (127.77.x.y), before the first run; the
// tokens are kept for every N. Each N gets a fresh server process on the same database.
import { fork } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  ROOT,
  cpuMsOf,
  createTarget,
  log,
  openSeedDb,
  percentile,
  prng,
  requireBuild,
  round,
  rssOf,
  runBench,
  runCli,
  sleep,
  startServer,
  stopServer,
} from './lib/workspace.mjs';
import {
  MESSAGE_COLUMNS,
  SESSION_COLUMNS,
  bulkInsert,
  withTextIndexDeferred,
} from './lib/bulk-load.mjs';
import { profileTop } from './lib/cpu-profile.mjs';

// ---------------------------------------------------------------------------------------------
// Options

const USAGE = `usage: node bench/operators.mjs [--n 250,500,1000,1500,2000] [--seconds 60] [--ramp 15]
  [--workers 2] [--chats 30] [--messages 5] [--inbound-every 60] [--aligned] [--storm]
  [--nice] [--timeout 50] [--profile] [--quick] [--keep] [--pg <postgres-url>] [--server-env NAME=value]...
  [--server-log <dir>] [--suffix <name>] [--teams 50x20]`;
const argv = process.argv.slice(2);
const opt = {
  n: [250, 500, 1000, 1500, 2000],
  seconds: 60,
  ramp: 15,
  workers: 2,
  chats: 30,
  messages: 5,
  inboundEvery: 60,
  timeout: 50,
  aligned: false,
  storm: false,
  nice: false,
  profile: false,
  quick: false,
  keep: false,
  pg: null,
  /** Extra environment of the server (--server-env NAME=value, repeatable): A/B runs. */
  serverEnv: {},
  /** A directory for each run's server output (e.g. with --server-env LOG_LEVEL=debug). */
  serverLog: null,
  /** The team phase: { count, members } (--teams 50x20), or none. */
  teams: null,
};
const numeric = {
  '--seconds': 'seconds',
  '--ramp': 'ramp',
  '--workers': 'workers',
  '--chats': 'chats',
  '--messages': 'messages',
  '--inbound-every': 'inboundEvery',
  '--timeout': 'timeout',
};
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--help' || a === '-h') {
    console.log(USAGE);
    process.exit(0);
  } else if (a === '--n') opt.n = String(argv[++i]).split(',').map(Number);
  else if (a === '--pg') opt.pg = argv[++i] ?? null;
  else if (a === '--server-log') opt.serverLog = argv[++i];
  // Kept apart from an earlier run's file of the same day (e.g. before/after a change).
  else if (a === '--suffix') opt.suffix = argv[++i];
  else if (a === '--teams') {
    const [count, members] = String(argv[++i]).split('x').map(Number);
    opt.teams = { count, members };
  } else if (a === '--server-env') {
    const [name, ...rest] = String(argv[++i]).split('=');
    opt.serverEnv[name] = rest.join('=');
  } else if (a in numeric) opt[numeric[a]] = Number(argv[++i]);
  else if (a === '--aligned') opt.aligned = true;
  else if (a === '--storm') opt.storm = true;
  else if (a === '--nice') opt.nice = true;
  else if (a === '--profile') opt.profile = true;
  else if (a === '--quick') opt.quick = true;
  else if (a === '--keep') opt.keep = true;
  else {
    console.error(`unknown argument ${a}\n${USAGE}`);
    process.exit(2);
  }
}
if (opt.quick) opt.seconds = Math.min(opt.seconds, 20);
if (opt.storm) opt.ramp = 0;
if (opt.nice && process.getuid?.() !== 0) {
  console.error('--nice needs root (it raises the priority of the bench and its server)');
  process.exit(2);
}
const bad = [...opt.n, opt.seconds, opt.workers, opt.chats, opt.timeout].some(
  (v) => !Number.isInteger(v) || v < 1,
);
if (bad || !Number.isFinite(opt.ramp) || !Number.isFinite(opt.inboundEvery) || opt.n.length === 0) {
  console.error(`bad option value\n${USAGE}`);
  process.exit(2);
}
if (
  opt.teams &&
  ![opt.teams.count, opt.teams.members].every((v) => Number.isInteger(v) && v >= 1)
) {
  console.error(`--teams takes <teams>x<members>, e.g. 50x20\n${USAGE}`);
  process.exit(2);
}
if (argv.includes('--pg') && !opt.pg) {
  console.error('--pg needs a postgres:// URL');
  process.exit(2);
}
requireBuild('operators.mjs');

const MAX_N = Math.max(...opt.n);
const PASSWORD = 'bench-password-1';
const SECRET = 'bench-platform-secret-0123456789';
/** Every console has done each of its calls at least once before the window opens. */
const WARM_MS = 22_000;
const LOGIN_CONCURRENCY = 4;
const GLOBAL_TIMEOUT_MS = 90 * 60_000;
const RUN_ID = Date.now().toString(36);
const wallNow = () => performance.timeOrigin + performance.now();

// ---------------------------------------------------------------------------------------------
// The workspace: seats of one or two consoles, one or two phone accounts, chats with messages

/** Consoles in seat order: seats alternate one console and two (the same seat on two desks). */
function layout(consoleCount, chatsPerSeat) {
  const seats = [];
  const consoles = [];
  for (let s = 0; consoles.length < consoleCount; s++) {
    const phones = [`+1557${String(s * 2).padStart(7, '0')}`];
    if (s % 4 === 3) phones.push(`+1557${String(s * 2 + 1).padStart(7, '0')}`);
    const seat = { index: s, account: `op${String(s).padStart(5, '0')}`, phones, chats: [] };
    for (let c = 0; c < chatsPerSeat; c++) {
      seat.chats.push({
        send_phone: phones[c % phones.length],
        receiver_phone: `+4478${String(s).padStart(5, '0')}${String(c).padStart(3, '0')}`,
      });
    }
    seats.push(seat);
    const per = s % 2 === 0 ? 1 : 2;
    for (let k = 0; k < per && consoles.length < consoleCount; k++) {
      const id = consoles.length;
      consoles.push({
        id,
        seat,
        address: `127.77.${Math.floor(id / 250)}.${(id % 250) + 1}`,
      });
    }
  }
  return { seats, consoles };
}

/**
 * The team phase's operators: `count` team numbers, `members` member seats each, one console
 * per member; each member holds `chatsPerSeat` chats of its team's number. The seats own no
 * number (their team's number is its queue seat's, seedTeams).
 */
function teamLayout(count, members, chatsPerSeat, firstConsoleId) {
  const seats = [];
  const consoles = [];
  const teams = [];
  for (let t = 0; t < count; t++) {
    const phone = `+1558${String(t).padStart(7, '0')}`;
    const team = { index: t, phone, members: [] };
    teams.push(team);
    for (let m = 0; m < members; m++) {
      const s = t * members + m;
      const seat = { index: s, account: `tm${String(s).padStart(5, '0')}`, phones: [], chats: [] };
      for (let c = 0; c < chatsPerSeat; c++) {
        seat.chats.push({
          send_phone: phone,
          receiver_phone: `+4479${String(s).padStart(5, '0')}${String(c).padStart(3, '0')}`,
        });
      }
      seats.push(seat);
      team.members.push(seat);
      const id = firstConsoleId + consoles.length;
      consoles.push({ id, seat, address: `127.78.${Math.floor(s / 250)}.${(s % 250) + 1}` });
    }
  }
  return { seats, consoles, teams };
}

/**
 * The team numbers as the owner makes them (TeamsService.set): a frozen queue seat with its
 * built-in groups holds each number, the team row with automatic routing, the members. Written
 * directly, as the seats are (seedWorkspace).
 */
async function seedTeams(target, teams, capacity) {
  const db = await openSeedDb(target);
  const now = Date.now();
  const groups = await db.all(
    'SELECT name, type FROM seat_groups WHERE seat_id = (SELECT MIN(id) FROM seats)',
  );
  const queues = await bulkInsert(
    db,
    'seats',
    ['account', 'nickname', 'password_hash', 'frozen', 'created_at'],
    teams.map((t) => [`team queue bench ${t.index}`, `Queue ${t.phone}`, '!', 1, now]),
    true,
  );
  teams.forEach((t, i) => (t.queueSeatId = queues[i].id));
  await bulkInsert(
    db,
    'seat_groups',
    ['seat_id', 'name', 'type', 'created_at'],
    teams.flatMap((t) => groups.map((g) => [t.queueSeatId, g.name, g.type, now])),
    false,
  );
  const accounts = await bulkInsert(
    db,
    'phone_accounts',
    ['send_phone', 'label', 'channel', 'seat_id', 'created_at'],
    teams.map((t) => [t.phone, `Team ${t.index}`, 'platform', t.queueSeatId, now]),
    true,
  );
  teams.forEach((t, i) => (t.accountId = accounts[i].id));
  await bulkInsert(
    db,
    'team_accounts',
    ['account_id', 'queue_seat_id', 'routing', 'capacity', 'last_routed_seat_id', 'created_at'],
    teams.map((t) => [t.accountId, t.queueSeatId, 'automatic', capacity, null, now]),
    false,
  );
  await bulkInsert(
    db,
    'team_members',
    ['account_id', 'seat_id', 'joined_at'],
    teams.flatMap((t) => t.members.map((m) => [t.accountId, m.id, now])),
    false,
  );
  await db.close();
}

/**
 * The first seat with the CLI (migrations, the password's hash, built-in groups the real way);
 * the others copy its hash and groups, directly in the database, with their accounts, chats
 * and messages (the text index built once at the end).
 */
async function seedWorkspace(target, env, seats) {
  const t0 = performance.now();
  runCli(['seat:create', seats[0].account, '--password', PASSWORD], env);
  const db = await openSeedDb(target);
  const rnd = prng(20261124);
  const now = Date.now();
  const first = await db.get('SELECT id, password_hash FROM seats WHERE account = ?', [
    seats[0].account,
  ]);
  const groups = await db.all('SELECT name, type FROM seat_groups WHERE seat_id = ?', [first.id]);
  seats[0].id = first.id;
  const rest = seats.slice(1);
  const seatRows = await bulkInsert(
    db,
    'seats',
    ['account', 'nickname', 'password_hash', 'frozen', 'created_at'],
    rest.map((s) => [s.account, `Operator ${s.index}`, first.password_hash, 0, now]),
    true,
  );
  rest.forEach((s, i) => (s.id = seatRows[i].id));
  await bulkInsert(
    db,
    'seat_groups',
    ['seat_id', 'name', 'type', 'created_at'],
    rest.flatMap((s) => groups.map((g) => [s.id, g.name, g.type, now])),
    false,
  );
  const ungrouped = new Map(
    (await db.all('SELECT seat_id, id FROM seat_groups WHERE type = ?', ['ungrouped'])).map((r) => [
      Number(r.seat_id),
      Number(r.id),
    ]),
  );
  await bulkInsert(
    db,
    'phone_accounts',
    ['send_phone', 'label', 'channel', 'seat_id', 'created_at'],
    seats.flatMap((s) => s.phones.map((p) => [p, `Line ${s.account}`, 'platform', s.id, now])),
    false,
  );
  const texts = [
    'Hello, I have a question about my order',
    'Sure, could you share the order number please?',
    'It is 4711-2023, the parcel has not arrived yet',
    'Thanks! It left the warehouse yesterday and should arrive tomorrow.',
    'Great, thank you for the quick answer',
  ];
  const sessionRows = [];
  const chats = [];
  for (const s of seats) {
    for (const chat of s.chats) {
      const latest = now - rnd.int(1, 20 * 60) * 60_000;
      const unread = rnd.chance(0.3) ? rnd.int(1, 3) : 0;
      chats.push({ seat: s, latest, unread });
      sessionRows.push([
        s.id,
        chat.send_phone,
        chat.receiver_phone,
        ungrouped.get(Number(s.id)),
        0,
        '',
        unread,
        latest - 7 * 86_400_000,
        latest,
        unread ? 'in' : 'out',
        texts[0],
        'text',
        0,
      ]);
    }
  }
  let messageCount = 0;
  await withTextIndexDeferred(db, target, async () => {
    const ids = await bulkInsert(db, 'sessions', SESSION_COLUMNS, sessionRows, true);
    const messageRows = [];
    chats.forEach((c, i) => {
      for (let k = 0; k < opt.messages; k++) {
        const incoming = k >= opt.messages - c.unread || k % 2 === 0;
        messageRows.push([
          ids[i].id,
          c.seat.id,
          incoming ? 'in' : 'out',
          'text',
          texts[k % texts.length],
          incoming && k >= opt.messages - c.unread ? 'delivered' : 'read',
          c.latest - (opt.messages - k) * 60_000,
          0,
          0,
        ]);
      }
    });
    messageCount = messageRows.length;
    await bulkInsert(db, 'messages', MESSAGE_COLUMNS, messageRows, false);
  });
  await db.close();
  return {
    seats: seats.length,
    phone_accounts: seats.reduce((n, s) => n + s.phones.length, 0),
    chats: chats.length,
    messages: messageCount,
    seconds: round((performance.now() - t0) / 1000),
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP from the coordinator (logins, webhooks, the health probe)

function post(agent, url, body, headers = {}) {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...headers,
        },
        timeout: opt.timeout * 1000,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode, json: JSON.parse(Buffer.concat(chunks).toString()) });
          } catch {
            resolve({ status: res.statusCode, json: null });
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve({ status: 0, error: err.code ?? err.message }));
    req.end(payload);
  });
}

/** Every console logs in once, from its own address, a few at a time. */
async function loginAll(base, consoles) {
  const latencies = [];
  const errors = {};
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: LOGIN_CONCURRENCY }, async () => {
      while (next < consoles.length) {
        const c = consoles[next++];
        const agent = new http.Agent({ keepAlive: false, localAddress: c.address });
        const start = performance.now();
        const res = await post(agent, `${base}/v1/seat/chat/login`, {
          account: c.seat.account,
          password: PASSWORD,
        });
        latencies.push(performance.now() - start);
        if (res.json?.code === '000000') c.token = res.json.data.token;
        else errors[res.json?.code ?? res.error ?? res.status] = (errors[res.json?.code] ?? 0) + 1;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    logins: consoles.length,
    seconds: round((performance.now() - t0) / 1000),
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
    errors,
  };
}

/** The platform: takes each operator message the outbox delivers (its signature unchecked). */
function startPlatformSink() {
  let delivered = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ external_id: `sink-${delivered}` }));
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/deliver`,
        delivered: () => delivered,
        close: () => new Promise((r) => server.close(r)),
      }),
    );
  });
}

/** Customers write in: signed webhooks at a steady rate to the seats that have a console. */
function startInbound(base, seats, perSecond, newShare = 0) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const latencies = [];
  const errors = {};
  let seq = 0;
  let measuring = false;
  let timer = null;
  /** Webhooks not yet answered: those sent in the window count, as the consoles' calls do. */
  const inFlight = new Set();
  const rnd = prng(7);
  const send = async () => {
    const seat = rnd.pick(seats);
    const known = rnd.pick(seat.chats);
    // A new customer of the seat's number (the team phase: a chat routing hands to a member).
    const chat =
      newShare > 0 && rnd.chance(newShare)
        ? {
            send_phone: known.send_phone,
            receiver_phone: `+4476${String(seq % 1e9).padStart(9, '0')}`,
          }
        : known;
    const body = JSON.stringify({
      id: `in-${RUN_ID}-${seq++}`,
      account: chat.send_phone,
      customer: chat.receiver_phone,
      type: 'text',
      content: `in ${wallNow().toFixed(2)}`,
    });
    const ts = String(Math.floor(Date.now() / 1000));
    const sig = createHmac('sha256', SECRET).update(`${ts}.`).update(body).digest('hex');
    const counted = measuring;
    const t0 = performance.now();
    const res = await post(agent, `${base}/v1/platform/messages`, body, {
      'x-parley-timestamp': ts,
      'x-parley-signature': sig,
    });
    if (!counted) return;
    const code = res.json?.code;
    if (code === '000000') latencies.push(performance.now() - t0);
    else {
      const key = code ? `code ${code}` : res.error ? `net ${res.error}` : `http ${res.status}`;
      errors[key] = (errors[key] ?? 0) + 1;
    }
  };
  const tracked = () => {
    const done = send().finally(() => inFlight.delete(done));
    inFlight.add(done);
  };
  if (perSecond > 0) timer = setInterval(tracked, 1000 / perSecond);
  return {
    measure: () => {
      measuring = true;
      latencies.length = 0;
    },
    /** Stops sending; the webhooks sent in the window are answered (or time out) first. */
    stop: async () => {
      measuring = false;
      if (timer) clearInterval(timer);
      // Destroying the agent under them would count each as a reset (net ECONNRESET).
      await Promise.all(inFlight);
      agent.destroy();
      return {
        sent: latencies.length + Object.values(errors).reduce((a, b) => a + b, 0),
        latencies,
        errors,
      };
    },
  };
}

/**
 * How long a trivial request waits in the server, from outside, every 200 ms on a kept
 * connection: with nothing to do in the handler, this is the event loop's lag (plus ~0.3 ms).
 */
function startProbe(base) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples = [];
  let errors = 0;
  let measuring = false;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    const t0 = performance.now();
    const req = http.get(`${base}/healthz`, { agent, timeout: 30_000 }, (res) => {
      res.resume();
      res.on('end', () => {
        if (measuring) samples.push(performance.now() - t0);
        busy = false;
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => {
      if (measuring) errors++;
      busy = false;
    });
  }, 200);
  return {
    measure: () => (measuring = true),
    stop: () => {
      clearInterval(timer);
      agent.destroy();
      return { samples, errors };
    },
  };
}

async function pgAdmin(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined); // a lost connection fails its next query instead
  await client.connect();
  return client;
}

/** A fresh database on the server at `url`, dropped at the end. */
async function createPgDatabase(url) {
  const name = `parley_operators_${RUN_ID}`;
  const admin = await pgAdmin(url);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  return {
    name,
    url: dbUrl.toString(),
    drop: async () => {
      const c = await pgAdmin(url);
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * The server's PostgreSQL connections every 200 ms (pg_stat_activity of the bench's database):
 * how many are open and how many run a statement or sit in a transaction, and the round trip of
 * a `SELECT 1` from here (the best a pooled connection can do on this machine at that moment).
 * A connection the server has checked out but not yet given its next query shows as idle.
 */
async function startPgSampler(pgDb) {
  const client = await pgAdmin(pgDb.url);
  // The database's work in the window: its transactions (an autocommit statement is one) and
  // the CPU of the server's backends (those open at the end; a pooled one stays open).
  const work = async () => {
    const [{ rows: tx }, { rows: backends }] = await Promise.all([
      client.query(
        'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1',
        [pgDb.name],
      ),
      client.query(
        'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [pgDb.name],
      ),
    ]);
    return {
      transactions: Number(tx[0]?.n ?? 0),
      cpu: new Map(backends.map((b) => [b.pid, cpuMsOf(b.pid) ?? 0])),
    };
  };
  const work0 = await work();
  // A one-row commit: what any write waits for at least (the WAL's flush to disk).
  await client.query('CREATE TABLE IF NOT EXISTS bench_commit_probe (at bigint)');
  const t0 = performance.now();
  const samples = [];
  const roundTrips = [];
  const commits = [];
  let busy = false;
  let errors = 0;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      // The machine's own query round trip right now: what one pooled connection can do at best.
      const t0 = performance.now();
      await client.query('SELECT 1');
      roundTrips.push(performance.now() - t0);
      const t1 = performance.now();
      await client.query('INSERT INTO bench_commit_probe VALUES ($1)', [Date.now()]);
      commits.push(performance.now() - t1);
      const { rows } = await client.query(
        `SELECT count(*)::int AS open,
                count(*) FILTER (WHERE state <> 'idle')::int AS busy
           FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
        [pgDb.name],
      );
      samples.push(rows[0]);
    } catch {
      errors++; // e.g. a backend terminated by someone else's test on a shared server
    } finally {
      busy = false;
    }
  }, 200);
  return {
    stop: async () => {
      clearInterval(timer);
      // Backends report their counts when idle, at most once a second.
      await sleep(1100);
      const work1 = await work().catch(() => null);
      const wallMs = performance.now() - t0;
      await client.end().catch(() => undefined);
      let backendCpu = 0;
      for (const [pid, ms] of work1?.cpu ?? []) backendCpu += ms - (work0.cpu.get(pid) ?? 0);
      const open = Math.max(0, ...samples.map((s) => s.open));
      const busyCounts = samples.map((s) => s.busy).sort((a, b) => a - b);
      return {
        samples: samples.length,
        select1_round_trip: summary(roundTrips),
        commit_round_trip: summary(commits),
        sampler_errors: errors,
        connections_max: open,
        busy_p50: percentile(busyCounts, 50),
        busy_p99: percentile(busyCounts, 99),
        // Share of samples with every open connection busy.
        all_busy_share: round(
          samples.filter((s) => s.open > 0 && s.busy >= s.open).length / (samples.length || 1),
        ),
        // Less the sampler's own three statements a sample.
        transactions_per_second: work1
          ? round(
              (work1.transactions - work0.transactions - 3 * samples.length) / (wallMs / 1000),
              1,
            )
          : null,
        backends_cpu_percent_of_one_core: work1 ? round((100 * backendCpu) / wallMs, 1) : null,
      };
    },
  };
}

/**
 * --nice: the server, its PostgreSQL backends, the load generator and this process run at
 * nice -10, so other work on a shared machine disturbs the figures less (a production box runs
 * Parley alone). Backends come and go with the pool: looked up every second. (PostgreSQL's
 * backends stay in the database server's own scheduling group, whose weight is left alone.)
 */
async function startRenicer(pids, pgDb) {
  const client = pgDb ? await pgAdmin(pgDb.url) : null;
  const renice = (pid) => {
    try {
      os.setPriority(pid, -10);
    } catch {
      // gone
    }
  };
  const tick = async () => {
    for (const pid of [process.pid, ...pids]) renice(pid);
    if (!client) return;
    const { rows } = await client.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [
      pgDb.name,
    ]);
    for (const r of rows) renice(r.pid);
  };
  // With the kernel's autogroups (sched_autogroup_enabled), nice counts only inside a session's
  // group: the group of this session (the bench, its server and workers) gets the weight too.
  try {
    writeFileSync('/proc/self/autogroup', '-10');
  } catch {
    // no autogroups here
  }
  await tick();
  const timer = setInterval(() => void tick().catch(() => undefined), 1000);
  return {
    stop: async () => {
      clearInterval(timer);
      await client?.end();
      try {
        writeFileSync('/proc/self/autogroup', '0');
      } catch {
        // no autogroups here
      }
    },
  };
}

function cpuPressure() {
  try {
    return Number(
      /some avg10=[\d.]+ avg60=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'))[1],
    );
  } catch {
    return null;
  }
}

/** The kernel's accept-queue counters (TcpExt ListenOverflows, ListenDrops). */
function listenCounters() {
  const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
  const i = lines.findIndex((l) => l.startsWith('TcpExt:'));
  const names = lines[i].split(/\s+/);
  const values = lines[i + 1].split(/\s+/).map(Number);
  const get = (name) => values[names.indexOf(name)] ?? 0;
  return { ListenOverflows: get('ListenOverflows'), ListenDrops: get('ListenDrops') };
}

/** The server's resources every second: RSS, open file descriptors. */
function startSampler(pid) {
  const rss = [];
  const fds = [];
  const timer = setInterval(() => {
    rss.push(rssOf(pid).vm_rss_mb);
    try {
      fds.push(readdirSync(`/proc/${pid}/fd`).length);
    } catch {
      // gone
    }
  }, 1000);
  return {
    stop: () => {
      clearInterval(timer);
      return {
        rss_mb_max: Math.max(...rss.filter((v) => v !== null)),
        rss_mb_end: rss.at(-1) ?? null,
        fds_max: fds.length ? Math.max(...fds) : null,
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// One run: N consoles against a fresh server process

function summary(list) {
  const sorted = [...list].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50_ms: round(percentile(sorted, 50)),
    p95_ms: round(percentile(sorted, 95)),
    p99_ms: round(percentile(sorted, 99)),
    max_ms: round(sorted.at(-1) ?? null),
  };
}

function mergeCounts(into, from) {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
  return into;
}

/** The token of the bench server's GET /metrics (its request-time histograms). */
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

/** The server's request-time histogram buckets, by route: cumulative counts by bound (s). */
async function serverTimes(base) {
  const res = await fetch(`${base}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  }).catch(() => null);
  if (!res?.ok) return null;
  const byRoute = {};
  for (const line of (await res.text()).split('\n')) {
    // The team door's routing step (parley_team_routing_seconds), kept as a route of its own.
    const r = /^parley_team_routing_seconds_(bucket|sum|count)\{(.*)\} ([\d.e+-]+)/.exec(line);
    if (r) {
      const result = /result="([^"]*)"/.exec(r[2])?.[1];
      const key = `team routing: ${result}`;
      const entry = (byRoute[key] ??= {});
      if (r[1] === 'bucket') {
        const le = /le="([^"]*)"/.exec(r[2])?.[1];
        entry[le] = (entry[le] ?? 0) + Number(r[3]);
      } else entry[`_${r[1]}`] = Number(r[3]);
      continue;
    }
    const m = /^parley_http_request_duration_seconds_bucket\{(.*)\} (\d+)/.exec(line);
    if (!m) continue;
    const route = /route="([^"]*)"/.exec(m[1])?.[1];
    const le = /le="([^"]*)"/.exec(m[1])?.[1];
    const buckets = (byRoute[route] ??= {});
    buckets[le] = (buckets[le] ?? 0) + Number(m[2]);
  }
  return byRoute;
}

/**
 * Per route, the server's own p50/p99 over the window (the upper bound of the histogram bucket
 * it falls in): the time from Fastify's request to its reply. Beside the client's figures it
 * tells a wait inside the server from one before it reads the request or after it answers.
 */
function serverQuantiles(before, after) {
  if (!before || !after) return null;
  const out = {};
  for (const [route, all] of Object.entries(after)) {
    const { _sum, _count, ...buckets } = all;
    const counts = Object.entries(buckets)
      .map(([le, c]) => [le === '+Inf' ? Infinity : Number(le), c - (before[route]?.[le] ?? 0)])
      .sort((a, b) => a[0] - b[0]);
    const total = counts.at(-1)?.[1] ?? 0;
    if (total < (route.startsWith('team routing') ? 1 : 100)) continue;
    const bound = (q) => counts.find(([, c]) => c >= q * total)?.[0];
    const ms = (s) => (s === Infinity ? '>10000' : round(s * 1000));
    out[route] = { n: total, p50_le_ms: ms(bound(0.5)), p99_le_ms: ms(bound(0.99)) };
    if (_sum !== undefined) {
      const n = _count - (before[route]?._count ?? 0);
      out[route].mean_ms = round(((_sum - (before[route]?._sum ?? 0)) / n) * 1000, 3);
    }
  }
  return out;
}

async function runOnce(n, consoles, env, profileDir, pgDb, newShare = 0) {
  const active = consoles.slice(0, n);
  const seats = [...new Set(active.map((c) => c.seat))];
  log(`N=${n}: ${active.length} consoles on ${seats.length} seats; starting the server…`);
  // workspace.mjs starts the server with --cpu-prof when this is set.
  if (profileDir) process.env.PARLEY_BENCH_PROFILE = profileDir;
  else delete process.env.PARLEY_BENCH_PROFILE;
  const server = await startServer({ PARLEY_METRICS_TOKEN: METRICS_TOKEN, ...env });
  const pid = server.child.pid;
  // At LOG_LEVEL=debug the server logs a `load` line every 10 s (plugins/load-log.ts).
  const loadLines = [];
  let partial = '';
  server.child.stdout.on('data', (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    for (const line of lines) {
      if (!line.includes('"msg":"load"')) continue;
      const { eventLoopDelayMs, pgPool, pushSockets } = JSON.parse(line);
      loadLines.push({
        at: round(performance.now() / 1000, 1),
        eventLoopDelayMs,
        pgPool,
        pushSockets,
      });
    }
  });
  // Consoles of a seat stay in one worker; seats are dealt round-robin.
  const shares = Array.from({ length: opt.workers }, () => []);
  seats.forEach((s, i) => shares[i % opt.workers].push(s));
  const workers = shares.map((share) => {
    const child = fork(path.join(ROOT, 'bench/lib/operator-worker.mjs'), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const set = new Set(share);
    child.send({
      type: 'start',
      base: server.base,
      runId: RUN_ID + n + (newShare > 0 ? 't' : ''),
      inStep: opt.aligned,
      measureAtStart: opt.storm,
      timeoutMs: opt.timeout * 1000,
      rampMs: opt.ramp * 1000,
      operators: active
        .filter((c) => set.has(c.seat))
        .map((c) => ({ id: c.id, token: c.token, address: c.address, chats: c.seat.chats })),
    });
    return child;
  });
  const renicer = opt.nice ? await startRenicer([pid, ...workers.map((w) => w.pid)], pgDb) : null;
  const inboundRate = opt.inboundEvery > 0 ? seats.length / opt.inboundEvery : 0;
  const inbound = startInbound(server.base, seats, inboundRate, newShare);
  const probe = startProbe(server.base);
  try {
    // A storm is measured from the first connection on: every console at once, as after a
    // restart of the server; otherwise the window opens once every console is running.
    if (!opt.storm) await sleep(opt.ramp * 1000 + WARM_MS);
    log(`N=${n}: measuring for ${opt.seconds} s…`);
    const net0 = listenCounters();
    const sampler = startSampler(pid);
    const pgSampler = pgDb ? await startPgSampler(pgDb) : null;
    const times0 = await serverTimes(server.base);
    const cpu0 = { server: cpuMsOf(pid), workers: workers.map((w) => cpuMsOf(w.pid)) };
    const self0 = process.cpuUsage();
    const t0 = performance.now();
    if (!opt.storm) for (const w of workers) w.send({ type: 'measure' });
    inbound.measure();
    probe.measure();
    await sleep(opt.seconds * 1000);
    const wallMs = performance.now() - t0;
    const cpu1 = { server: cpuMsOf(pid), workers: workers.map((w) => cpuMsOf(w.pid)) };
    const times1 = await serverTimes(server.base);
    const self1 = process.cpuUsage(self0);
    const resources = sampler.stop();
    const pgPool = pgSampler ? await pgSampler.stop() : undefined;
    const net1 = listenCounters();
    const probed = probe.stop();
    const webhooks = await inbound.stop();
    const reports = await Promise.all(
      workers.map(
        (w) =>
          new Promise((resolve) => {
            w.once('message', resolve);
            w.send({ type: 'report', waitMs: opt.timeout * 1000 + 1000 });
          }),
      ),
    );
    const pct = (ms) => round((100 * ms) / wallMs, 1);
    const calls = {};
    for (const kind of ['getGroupList', 'getChatRecord', 'message']) {
      const lat = reports.flatMap((r) => r.stats.latencies[kind]);
      const errors = reports.reduce((acc, r) => mergeCounts(acc, r.stats.errors[kind]), {});
      calls[kind] = {
        ...summary(lat),
        per_second: round(lat.length / (wallMs / 1000), 1),
        errors,
        error_count: Object.values(errors).reduce((a, b) => a + b, 0),
        skipped_in_flight: reports.reduce((a, r) => a + r.stats.skipped[kind], 0),
      };
    }
    calls['platform webhook'] = {
      ...summary(webhooks.latencies),
      per_second: round(webhooks.latencies.length / (wallMs / 1000), 1),
      errors: webhooks.errors,
      error_count: Object.values(webhooks.errors).reduce((a, b) => a + b, 0),
    };
    if (pgPool?.transactions_per_second != null) {
      const callsPerSecond = Object.values(calls).reduce((a, c) => a + c.per_second, 0);
      pgPool.transactions_per_call = round(pgPool.transactions_per_second / callsPerSecond, 2);
    }
    const push = {
      sockets_open_at_end: reports.reduce((a, r) => a + r.open_sockets, 0),
      events: reports.reduce((acc, r) => mergeCounts(acc, r.stats.push.events), {}),
      own_send: summary(reports.flatMap((r) => r.stats.push.own_send)),
      other_console: summary(reports.flatMap((r) => r.stats.push.other_console)),
      inbound: summary(reports.flatMap((r) => r.stats.push.inbound)),
      connect_errors: reports.reduce((acc, r) => mergeCounts(acc, r.stats.push.connect_errors), {}),
      closed: reports.reduce((acc, r) => mergeCounts(acc, r.stats.push.closed), {}),
      reconnects: reports.reduce((a, r) => a + r.stats.push.reconnects, 0),
    };
    const probeSorted = [...probed.samples].sort((a, b) => a - b);
    const serverCpu = cpu1.server - cpu0.server;
    const result = {
      n,
      seats: seats.length,
      seconds: round(wallMs / 1000, 1),
      calls,
      unanswered_at_report: reports.reduce((a, r) => a + r.unanswered, 0),
      push,
      server: {
        cpu_percent_of_one_core: pct(serverCpu),
        ...resources,
        // Connections the kernel dropped because the accept queue was full (this network
        // namespace, every listener: other processes' too).
        listen_overflows: net1.ListenOverflows - net0.ListenOverflows,
        listen_drops: net1.ListenDrops - net0.ListenDrops,
        pg_connections: pgPool,
        own_times: serverQuantiles(times0, times1),
        // The server's own `load` lines during the window (only at LOG_LEVEL=debug).
        load_log: loadLines.length ? loadLines : undefined,
        healthz_probe: {
          ...summary(probed.samples),
          p99_ms: round(percentile(probeSorted, 99)),
          errors: probed.errors,
        },
      },
      generator: {
        workers: workers.length,
        cpu_percent_of_one_core_per_worker: cpu1.workers.map((c, i) => pct(c - cpu0.workers[i])),
        coordinator_cpu_percent: pct((self1.user + self1.system) / 1000),
      },
      load_avg: os.loadavg().map((v) => round(v)),
      // Share of the last minute in which a runnable task waited for a CPU (Linux PSI): near
      // 100 on a machine other work saturates, where no figure is the server's alone.
      cpu_pressure_some_avg60: cpuPressure(),
    };
    return result;
  } finally {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise((resolve) => {
            if (w.exitCode !== null) return resolve();
            w.once('exit', resolve);
            w.send({ type: 'stop' });
            setTimeout(() => w.kill('SIGKILL'), 5000).unref();
          }),
      ),
    );
    await inbound.stop();
    probe.stop();
    await renicer?.stop();
    // A loaded server takes a while to drain, and to write its profile.
    await stopServer(server, profileDir ? 120_000 : 30_000);
    if (opt.serverLog) {
      mkdirSync(opt.serverLog, { recursive: true });
      writeFileSync(path.join(opt.serverLog, `server-${n}.log`), server.output());
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Report

function printTable(report) {
  const lines = [];
  lines.push(
    `Active operators, ${report.database} | ${report.machine} | load ${report.load_avg_before.join(' ')}`,
  );
  lines.push(
    `each console: push socket, getGroupList /10 s, getChatRecord /5 s, message /20 s (phases ${
      opt.aligned ? 'ALIGNED' : 'spread'
    }); customers: 1 webhook per seat per ${opt.inboundEvery} s; ${report.workspace.chats} chats, ${report.workspace.messages} messages`,
  );
  const head =
    '|     N | call             |  req/s |    p50 |    p99 |     max | errors                     |';
  lines.push(head, head.replace(/[^|]/g, '-'));
  for (const r of report.runs) {
    for (const [kind, c] of Object.entries(r.calls)) {
      const errs = c.error_count
        ? Object.entries(c.errors)
            .map(([k, v]) => `${v} ${k}`)
            .join(', ')
        : '0';
      lines.push(
        `| ${String(r.n).padStart(5)} | ${kind.padEnd(16)} | ${String(c.per_second).padStart(6)} | ${String(c.p50_ms).padStart(6)} | ${String(c.p99_ms).padStart(6)} | ${String(c.max_ms).padStart(7)} | ${errs.slice(0, 26).padEnd(26)} |`,
      );
    }
  }
  lines.push('');
  const head2 =
    '|     N | sockets | push events | push p50/p99: own send · other console · inbound | server CPU | RSS MB | fds | lag p50/p99/max | generator CPU |';
  lines.push(head2, head2.replace(/[^|]/g, '-'));
  for (const r of report.runs) {
    const p = r.push;
    const events = Object.values(p.events).reduce((a, b) => a + b, 0);
    const lat = (s) => `${s.p50_ms ?? '-'}/${s.p99_ms ?? '-'}`;
    const probe = r.server.healthz_probe;
    lines.push(
      `| ${String(r.n).padStart(5)} | ${String(p.sockets_open_at_end).padStart(7)} | ${String(events).padStart(11)} | ${`${lat(p.own_send)} · ${lat(p.other_console)} · ${lat(p.inbound)}`.padEnd(48)} | ${`${r.server.cpu_percent_of_one_core} %`.padStart(10)} | ${String(r.server.rss_mb_max).padStart(6)} | ${String(r.server.fds_max).padStart(3)} | ${`${probe.p50_ms}/${probe.p99_ms}/${probe.max_ms}`.padStart(15)} | ${r.generator.cpu_percent_of_one_core_per_worker
        .map((v) => `${v}%`)
        .join(' ')
        .padStart(13)} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The team phase beside the one-seat run of the same N (else the nearest) of this invocation:
 * each call's p99 and their ratio (the issue's bound: 2), and the routing step's server time.
 */
function teamsVersusOneSeat(report) {
  const t = report.teams;
  const one = [...report.runs].sort((a, b) => Math.abs(a.n - t.n) - Math.abs(b.n - t.n))[0];
  const calls = {};
  for (const [kind, c] of Object.entries(t.calls)) {
    const base = one?.calls[kind]?.p99_ms;
    calls[kind] = {
      one_seat_p99_ms: base ?? null,
      teams_p99_ms: c.p99_ms,
      ratio: base ? round(c.p99_ms / base) : null,
    };
  }
  const routing = Object.fromEntries(
    Object.entries(t.server.own_times ?? {}).filter(([k]) => k.startsWith('team routing')),
  );
  return { one_seat_n: one?.n ?? null, teams_n: t.n, calls, routing };
}

/** Written after every N, so a run stopped half-way keeps what it measured. */
function writeReport(report) {
  const dir = path.join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(
    dir,
    `operators-${report.started_at.slice(0, 10)}${report.database === 'pg' ? '-pg' : ''}${
      opt.storm ? '-storm' : ''
    }${report.options.serverEnv && Object.keys(report.options.serverEnv).length ? '-env' : ''}${
      opt.suffix ? `-${opt.suffix}` : ''
    }.json`,
  );
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}

/** The server's profile of the run (written when it stopped), summarised. */
function readProfile(dir) {
  const file = existsSync(dir) && readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return { file: null, note: 'the server wrote no profile (killed before it could)' };
  const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  return { file: path.join(dir, file), top_self_ms: profileTop(profile, 15) };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = new Date();
  const loadBefore = os.loadavg().map((v) => round(v));
  const { seats, consoles } = layout(MAX_N, opt.chats);
  const team = opt.teams
    ? teamLayout(opt.teams.count, opt.teams.members, opt.chats, consoles.length)
    : null;
  const sink = await startPlatformSink();
  // PostgreSQL: a database of the bench's own, so pg_stat_activity shows the server's pool only.
  const pgDb = opt.pg ? await createPgDatabase(opt.pg) : null;
  const { target, env: baseEnv } = await createTarget(pgDb?.url ?? null);
  const env = {
    ...baseEnv,
    PARLEY_SANDBOX: 'off',
    PARLEY_PLATFORM_SECRET: SECRET,
    PARLEY_PLATFORM_URL: sink.url,
    PARLEY_TELEGRAM_POLLING: 'off',
    ...opt.serverEnv,
  };
  const profileRoot = opt.profile
    ? path.join(os.tmpdir(), `parley-operators-prof-${RUN_ID}`)
    : null;
  let report = null;
  try {
    log(`seeding ${seats.length} seats, ${consoles.length} consoles…`);
    const workspace = await seedWorkspace(target, env, [...seats, ...(team?.seats ?? [])]);
    // Room for every chat a member holds and gets: routing picks by fewest, never refuses.
    if (team) await seedTeams(target, team.teams, 100_000);
    log(`seeded in ${workspace.seconds} s; logging every console in…`);
    const server = await startServer(env);
    let login;
    try {
      login = await loginAll(server.base, [...consoles, ...(team?.consoles ?? [])]);
    } finally {
      await stopServer(server);
    }
    log(`logins: ${JSON.stringify(login)}`);
    if ([...consoles, ...(team?.consoles ?? [])].some((c) => !c.token)) {
      throw new Error('some consoles could not log in');
    }

    report = {
      benchmark: 'operators',
      started_at: started.toISOString(),
      database: target.kind,
      machine: `${os.cpus().length} CPU(s) ${os.cpus()[0]?.model.trim()}, Node ${process.version}`,
      load_avg_before: loadBefore,
      options: { ...opt, pg: opt.pg ? 'set' : null },
      workspace: { ...workspace, chats_per_seat: opt.chats, messages_per_chat: opt.messages },
      login,
      runs: [],
    };
    for (const n of opt.n) {
      const profileDir = profileRoot && path.join(profileRoot, `n${n}`);
      const run = await runOnce(n, consoles, env, profileDir, pgDb);
      if (profileDir) run.server.profile = readProfile(profileDir);
      run.outbox_delivered_total = sink.delivered();
      report.runs.push(run);
      log(
        `N=${n}: p99 ${Object.entries(run.calls)
          .map(([k, c]) => `${k} ${c.p99_ms} ms (${c.error_count} err)`)
          .join(', ')}; server CPU ${run.server.cpu_percent_of_one_core} %${
          run.server.pg_connections
            ? `; PostgreSQL backends' CPU ${run.server.pg_connections.backends_cpu_percent_of_one_core} %, ${run.server.pg_connections.transactions_per_call} transactions per call`
            : ''
        }`,
      );
      writeReport(report);
    }
    if (team) {
      const n = team.consoles.length;
      log(
        `teams: ${opt.teams.count} team numbers of ${opt.teams.members} members, automatic routing`,
      );
      const profileDir = profileRoot && path.join(profileRoot, 'teams');
      // Half the customers' messages open a chat: a routing decision each.
      const run = await runOnce(n, team.consoles, env, profileDir, pgDb, 0.5);
      if (profileDir) run.server.profile = readProfile(profileDir);
      run.teams = { ...opt.teams, routing: 'automatic', new_customer_share: 0.5 };
      report.teams = run;
      report.teams_vs_one_seat = teamsVersusOneSeat(report);
      log(`teams: ${JSON.stringify(report.teams_vs_one_seat)}`);
      writeReport(report);
    }
    report.load_avg_after = os.loadavg().map((v) => round(v));
    console.log(`\n${printTable(report)}`);
    const goalN = target.kind === 'pg' ? 2000 : 1000;
    for (const r of report.runs.filter((x) => x.n <= goalN)) {
      const worst = Math.max(...Object.values(r.calls).map((c) => c.p99_ms ?? 0));
      const errors = Object.values(r.calls).reduce((a, c) => a + c.error_count, 0);
      if (worst > 200 || errors > 0) {
        console.log(
          `WARNING: N=${r.n}: worst p99 ${worst} ms, ${errors} errors (goal: <= 200 ms, 0)`,
        );
      }
    }
    console.log(`\nwrote ${path.relative(ROOT, writeReport(report))}`);
    if (profileRoot) console.log(`server CPU profiles in ${profileRoot}`);
  } finally {
    await sink.close();
    if (!opt.keep) {
      rmSync(env.PARLEY_DATA_DIR, { recursive: true, force: true });
      if (pgDb) await pgDb.drop();
    } else {
      log(`kept ${pgDb ? `database ${pgDb.name}` : env.PARLEY_DATA_DIR}`);
    }
  }
}

runBench(main, GLOBAL_TIMEOUT_MS / 60_000);
