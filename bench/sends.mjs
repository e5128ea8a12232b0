#!/usr/bin/env node
// Durable text sends under load (see bench/README.md, "sends.mjs").
//
//   npm run build && node bench/sends.mjs [--quick] [--keep] [--rounds N] [--seconds S] [--pg <url>]
//
// Seeds the shared large workspace, starts the built server and sends text messages at 32
// keep-alive connections (each with its own client_msg_id), against a raw insert loop into the
// same schema (its full-text index included) in the same run; then checks that every
// acknowledged message is stored exactly once.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  MESSAGE_COLUMNS,
  SEAT,
  createTarget,
  dropTarget,
  log,
  openSeedDb,
  requireBuild,
  round,
  runBench,
  runCli,
  seed,
  startServer,
  stopServer,
} from './lib/workspace.mjs';
import {
  benchOptions,
  finishReport,
  machineOf,
  measure,
  median,
  printTable,
  startBareServer,
  withCpuSplit,
} from './lib/load.mjs';

const opt = benchOptions('sends.mjs', { only: false });
requireBuild('sends.mjs');

const CONNECTIONS = 32;
/** Sends go round-robin to this many chats (operators answer different customers). */
const CHATS = 64;
/**
 * The third scenario: one seat at twice the connections, over twice the chats, beside the raw
 * loop with as many writers. A send is answered when its batch commits, so at 32 connections
 * each waits for the batch in flight and then its own: the sends are bound by that wait, not by
 * the machine. With more senders the batches fill; the raw loop, one commit per row, is at its
 * ceiling at 32 writers already.
 */
const WIDE = 2;
/**
 * The second scenario: the same connections and chats spread over this many seats (operators),
 * as sends arrive in a real install. One seat's events are numbered in commit order, so one
 * seat's sends queue on its event counter; the first scenario, one seat, shows that limit.
 */
const SEATS = 8;
/** The raw loop's writers on PostgreSQL (its pool is the server's size: 10 connections). */
const PG_POOL = 10;
const TEXT = 'Thanks for waiting, your order 4711-2023 left the warehouse and arrives tomorrow.';

/**
 * The ceiling: the message rows alone, each committed on its own, for `seconds`. SQLite: one
 * prepared statement in a loop (one writer, as SQLite allows). PostgreSQL: CONNECTIONS
 * writers over a pool of PG_POOL connections.
 */
async function rawLoop(
  db,
  chats,
  seatId,
  runId,
  seconds,
  synchronous = 'FULL',
  writers = CONNECTIONS,
) {
  const values = (i) => {
    const chat = chats[i % chats.length];
    return [
      chat.id,
      seatId,
      `raw-${runId}-${i}`,
      'out',
      'text',
      `${TEXT} #${i}`,
      null,
      'sent',
      Date.now(),
      0,
      0,
    ];
  };
  const sqlInsert = `INSERT INTO messages (${MESSAGE_COLUMNS.join(', ')}) VALUES (${MESSAGE_COLUMNS.map(() => '?').join(', ')})`;
  let n = 0;
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  if (db.kind === 'sqlite') {
    // FULL syncs the log at every commit (survives a power cut), as the server's commit of a
    // batch of sends does; NORMAL (the server's other writes) syncs only at checkpoints.
    db.raw.pragma(`synchronous = ${synchronous}`);
    const insert = db.raw.prepare(sqlInsert);
    while (performance.now() < until) {
      insert.run(...values(n));
      n++;
    }
  } else {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: db.url, max: PG_POOL, options: db.options });
    const text = sqlInsert.replace(
      /\?/g,
      (() => {
        let k = 0;
        return () => `$${++k}`;
      })(),
    );
    await Promise.all(
      Array.from({ length: writers }, async () => {
        while (performance.now() < until) {
          const i = n++;
          await pool.query({ name: 'raw-insert', text, values: values(i) });
        }
      }),
    );
    await pool.end();
  }
  const wall = (performance.now() - t0) / 1000;
  return { messages: n, msg_per_s: round(n / wall, 1) };
}

/** The JSON body of a text send to `chat`. */
function sendBody(chat, clientMsgId, i) {
  return JSON.stringify({
    send_phone: chat.send_phone,
    receiver_phone: chat.receiver_phone,
    type: 'text',
    content: `${TEXT} #${i}`,
    client_msg_id: clientMsgId,
  });
}

async function login(base, seat = SEAT) {
  const res = await fetch(`${base}/v1/seat/chat/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: seat.account, password: seat.password }),
  });
  const json = await res.json();
  if (json.code !== '000000') throw new Error(`login answered ${json.code}`);
  return json.data.token;
}

async function main() {
  const started = new Date();
  const { target, env } = await createTarget(opt.pg);
  let server = null;
  let bare = null;
  let db = null;
  const rounds = [];
  const problems = [];
  let seedInfo = null;
  let loadBefore = null;
  const acked = new Map(); // client_msg_id -> msg_id answered
  let verify = null;
  try {
    seedInfo = await seed(target, env);
    log(`seeded ${seedInfo.chats} chats, ${seedInfo.messages} messages`);
    db = await openSeedDb(target);
    if (db.kind === 'pg') {
      db.url = target.url;
      db.options = `-c search_path=${target.schema}`;
      // The seed's WAL written out now, so no round measures its checkpoint (SQLite's seed
      // checkpoints itself). Needs a superuser or pg_checkpoint; without, the rounds go on.
      await db.all('CHECKPOINT').catch((err) => log(`no CHECKPOINT: ${err.message}`));
    }
    // Unblocked chats of the seat's groups (not Blocked), spread over the four accounts.
    let chats = await db.all(
      `SELECT s.id, s.send_phone, s.receiver_phone FROM sessions s JOIN seat_groups g ON g.id = s.group_id
       WHERE s.seat_id = ? AND s.blocked = 0 AND g.type <> 'blocked' ORDER BY s.id LIMIT ?`,
      [seedInfo.seat_id, CHATS * WIDE],
    );
    const wideChats = chats;
    chats = chats.slice(0, CHATS);
    const seats = await addSeats(db, env, SEATS - 1, CHATS / SEATS);
    server = await startServer(env);
    const pid = server.child.pid;
    const token = await login(server.base);
    // The many-seat scenario: the bench seat's first chats and the other seats' chats.
    const spread = [
      { token, chats: chats.slice(0, CHATS / SEATS) },
      ...(await Promise.all(
        seats.map(async (s) => ({ token: await login(server.base, s), chats: s.chats })),
      )),
    ];
    loadBefore = os.loadavg()[0];
    const runId = Date.now().toString(36);
    let seq = 0;
    let sample = null; // a send's answer, as the server wrote it
    const bodies = new Map(); // request index -> client_msg_id
    // Request i goes to chat i of the round-robin, of its seat (one seat, or SEATS seats).
    const sendScenario = (label, many = false, wide = 1) => ({
      url: `${server.base}/v1/seat/chat/message`,
      pid,
      connections: CONNECTIONS * wide,
      headersFor: (i) => ({
        authorization: `Bearer ${many ? spread[i % SEATS].token : token}`,
      }),
      body: (i) => {
        const chat = many
          ? spread[i % SEATS].chats[Math.floor(i / SEATS) % (CHATS / SEATS)]
          : wideChats[i % (CHATS * wide)];
        const id = `bench-${runId}-${label}-${seq++}`;
        bodies.set(i, id);
        return sendBody(chat, id, i);
      },
      onAnswer: (status, text, i) => {
        const id = bodies.get(i);
        bodies.delete(i);
        if (status === 200 && text.startsWith('{"code":"000000"')) {
          sample ??= text;
          if (acked.has(id)) problems.push(`${id} acknowledged twice`);
          acked.set(id, JSON.parse(text).data.msg_id);
        } else if (problems.length < 20) {
          problems.push(`send answered ${status} ${text.slice(0, 160)}`);
        }
      },
    });
    // Warm-up (not counted in the rounds; its acknowledgements are checked all the same).
    await measure({ ...sendScenario('warm'), seconds: 1 });
    await measure({ ...sendScenario('warm-seats', true), seconds: 1 });
    await rawLoop(db, chats, seedInfo.seat_id, `${runId}-warm`, 1);
    // HTTP alone: Fastify without a plugin answering every send with a real send's answer
    // bytes, driven the same way. What a send costs above it is the server's own work.
    bare = await startBareServer({ '/v1/seat/chat/message': sample ?? '' }, { fastify: true });
    const bareScenario = {
      url: `${bare.url}/v1/seat/chat/message`,
      pid: bare.pid,
      connections: CONNECTIONS,
      headers: { authorization: `Bearer ${token}` },
      body: (i) => sendBody(chats[i % chats.length], `bare-${runId}-${i}`, i),
    };
    await measure({ ...bareScenario, seconds: 1 });
    for (let r = 0; r < opt.rounds; r++) {
      log(`round ${r + 1}/${opt.rounds}`);
      const split = { serverPid: pid, postgres: db.kind === 'pg' };
      // Each with where the cores' time went (server, PostgreSQL, this process) per message.
      const raw = await withCpuSplit(
        split,
        () => rawLoop(db, chats, seedInfo.seat_id, `${runId}-${r}`, opt.seconds),
        (x) => x.messages,
      );
      const sends = await withCpuSplit(
        split,
        () => measure({ ...sendScenario(`r${r}`), seconds: opt.seconds }),
        (x) => x.requests,
      );
      const seatsSends = await withCpuSplit(
        split,
        () => measure({ ...sendScenario(`s${r}`, true), seconds: opt.seconds }),
        (x) => x.requests,
      );
      // Twice the senders: the raw loop's writers and one seat's connections.
      const rawWide =
        db.kind === 'pg'
          ? await withCpuSplit(
              split,
              () =>
                rawLoop(
                  db,
                  wideChats,
                  seedInfo.seat_id,
                  `${runId}-w${r}`,
                  opt.seconds,
                  'FULL',
                  CONNECTIONS * WIDE,
                ),
              (x) => x.messages,
            )
          : null;
      const wideSends = await withCpuSplit(
        split,
        () => measure({ ...sendScenario(`w${r}`, false, WIDE), seconds: opt.seconds }),
        (x) => x.requests,
      );
      const rawNormal =
        db.kind === 'sqlite'
          ? await rawLoop(db, chats, seedInfo.seat_id, `${runId}-n${r}`, opt.seconds, 'NORMAL')
          : null;
      const http = await withCpuSplit(
        { serverPid: bare.pid, postgres: false },
        () => measure({ ...bareScenario, seconds: opt.seconds }),
        (x) => x.requests,
      );
      rounds.push({
        raw,
        sends,
        seats_sends: seatsSends,
        raw_wide: rawWide,
        wide_sends: wideSends,
        raw_normal: rawNormal,
        http,
      });
    }
    // Every acknowledged message is stored once, with the id it was acknowledged with.
    const rows = await db.all(
      `SELECT client_msg_id, MIN(id) AS id, COUNT(*) AS n FROM messages
       WHERE client_msg_id LIKE ? GROUP BY client_msg_id`,
      [`bench-${runId}-%`],
    );
    const stored = new Map(rows.map((r) => [r.client_msg_id, r]));
    let missing = 0;
    let doubled = 0;
    let wrongId = 0;
    for (const [id, msgId] of acked) {
      const row = stored.get(id);
      if (!row) missing++;
      else if (Number(row.n) !== 1) doubled++;
      else if (Number(row.id) !== msgId) wrongId++;
    }
    verify = { acknowledged: acked.size, stored: rows.length, missing, doubled, wrong_id: wrongId };
    if (missing || doubled || wrongId) {
      problems.push(`acknowledged but missing ${missing}, doubled ${doubled}, other id ${wrongId}`);
    }
  } catch (err) {
    problems.push(`run aborted: ${err.stack ?? err.message}`);
    if (server) log(`server output (tail):\n${server.output().slice(-3000)}`);
  } finally {
    if (db) await db.close().catch(() => {});
    if (server) await stopServer(server);
    if (bare) await bare.stop();
    await dropTarget(target, env, opt.keep);
  }

  const pick = (fn) => median(rounds.map(fn));
  // Medians over the rounds of where the CPU went, per message (withCpuSplit).
  const cpuOf = (key) =>
    Object.fromEntries(
      ['server_ms_per_msg', 'postgres_ms_per_msg', 'generator_ms_per_msg', 'total_ms_per_msg']
        .map((k) => [
          k,
          round(
            pick((r) => r[key].cpu[k]),
            4,
          ),
        ])
        .concat([
          [
            'machine_busy_share',
            round(
              pick((r) => r[key].cpu.machine_busy_share),
              3,
            ),
          ],
        ]),
    );
  // One scenario's medians over the rounds (`key`: its measure() in each round), as a ratio to
  // the raw loop of the same round with as many writers (`raw`).
  const summary = (key, raw = 'raw') => ({
    send_msg_per_s: round(
      pick((r) => r[key].req_per_s),
      1,
    ),
    ratio_to_raw: round(
      pick((r) => r[key].req_per_s / (r[raw] ?? r.raw).msg_per_s),
      3,
    ),
    // SQLite: to the loop without a sync per commit, the ceiling issue 11 measured against.
    ratio_to_raw_normal: round(
      pick((r) => (r.raw_normal ? r[key].req_per_s / r.raw_normal.msg_per_s : null)),
      3,
    ),
    p50_ms: pick((r) => r[key].p50_ms),
    p99_ms: pick((r) => r[key].p99_ms),
    server_cpu_ms_per_msg: round(
      pick((r) => r[key].server_cpu_ms_per_req),
      3,
    ),
    errors: rounds.reduce((s, r) => s + r[key].errors, 0),
    cpu: cpuOf(key),
  });
  const result = rounds.length
    ? {
        raw_msg_per_s: round(
          pick((r) => r.raw.msg_per_s),
          1,
        ),
        raw_normal_msg_per_s: round(
          pick((r) => r.raw_normal?.msg_per_s),
          1,
        ),
        raw_cpu: cpuOf('raw'),
        http_alone: {
          req_per_s: round(
            pick((r) => r.http.req_per_s),
            1,
          ),
          cpu: cpuOf('http'),
        },
        ...summary('sends'),
        seats: { seats: SEATS, ...summary('seats_sends') },
        wide: {
          connections: CONNECTIONS * WIDE,
          chats: CHATS * WIDE,
          raw_msg_per_s: round(
            pick((r) => r.raw_wide?.msg_per_s),
            1,
          ),
          raw_cpu: target.kind === 'pg' ? cpuOf('raw_wide') : null,
          ...summary('wide_sends', 'raw_wide'),
        },
      }
    : null;
  const machine = machineOf(loadBefore);

  console.log(
    `\nParley sends, ${target.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${machine.cpus} CPU(s) ` +
      `${machine.cpu_model}, Node ${machine.node}, load ${machine.load_avg_1m_before} → ` +
      `${machine.load_avg_1m_after} | ${CONNECTIONS} connections over ${CHATS} chats, ` +
      `${opt.rounds} × ${opt.seconds} s, medians`,
  );
  if (result) {
    printTable(
      ['scenario', 'msg/s', 'of raw', 'p50 ms', 'p99 ms', 'cpu ms/msg'],
      [
        [
          `raw insert loop (${target.kind === 'sqlite' ? 'better-sqlite3, synchronous FULL' : `pg, ${CONNECTIONS} writers, 10 connections`})`,
          result.raw_msg_per_s,
          '100 %',
          '',
          '',
          '',
        ],
        ...(result.raw_normal_msg_per_s
          ? [
              [
                'raw insert loop (better-sqlite3, synchronous NORMAL: no sync per commit)',
                result.raw_normal_msg_per_s,
                `${round((result.raw_normal_msg_per_s / result.raw_msg_per_s) * 100, 1)} %`,
                '',
                '',
                '',
              ],
            ]
          : []),
        [
          'POST /v1/seat/chat/message, one seat',
          result.send_msg_per_s,
          `${round(result.ratio_to_raw * 100, 1)} %`,
          result.p50_ms,
          result.p99_ms,
          result.server_cpu_ms_per_msg,
        ],
        [
          `POST /v1/seat/chat/message, ${SEATS} seats`,
          result.seats.send_msg_per_s,
          `${round(result.seats.ratio_to_raw * 100, 1)} %`,
          result.seats.p50_ms,
          result.seats.p99_ms,
          result.seats.server_cpu_ms_per_msg,
        ],
        ...(result.wide.raw_msg_per_s
          ? [
              [
                `raw insert loop (pg, ${CONNECTIONS * WIDE} writers, 10 connections)`,
                result.wide.raw_msg_per_s,
                `${round((result.wide.raw_msg_per_s / result.raw_msg_per_s) * 100, 1)} %`,
                '',
                '',
                '',
              ],
            ]
          : []),
        [
          `POST /v1/seat/chat/message, one seat, ${CONNECTIONS * WIDE} connections${result.wide.raw_msg_per_s ? ` (of the ${CONNECTIONS * WIDE}-writer loop)` : ''}`,
          result.wide.send_msg_per_s,
          `${round(result.wide.ratio_to_raw * 100, 1)} %`,
          result.wide.p50_ms,
          result.wide.p99_ms,
          result.wide.server_cpu_ms_per_msg,
        ],
      ],
    );
  }
  if (result?.ratio_to_raw_normal) {
    const pct = (x) => `${round(x.ratio_to_raw_normal * 100, 1)} %`;
    console.log(
      `Of the raw loop without a sync per commit: one seat ${pct(result)}, ${SEATS} seats ` +
        `${pct(result.seats)}, ${CONNECTIONS * WIDE} connections ${pct(result.wide)}`,
    );
  }
  if (result) {
    // What a message costs the machine: a ratio to the raw loop follows from these and from
    // how busy each kept the cores.
    const cpuRow = (label, c) => [
      label,
      c.server_ms_per_msg ?? '',
      c.postgres_ms_per_msg ?? 'n/a',
      c.generator_ms_per_msg,
      c.total_ms_per_msg,
      `${round(c.machine_busy_share * 100, 1)} %`,
    ];
    console.log('\nCPU per message, ms (server · database · this process, the load generator):');
    printTable(
      ['scenario', 'server', 'PostgreSQL', 'generator', 'total', 'cores busy'],
      [
        cpuRow('raw insert loop', result.raw_cpu),
        cpuRow('POST /v1/seat/chat/message, one seat', result.cpu),
        cpuRow(`POST /v1/seat/chat/message, ${SEATS} seats`, result.seats.cpu),
        ...(result.wide.raw_cpu
          ? [cpuRow(`raw insert loop, ${CONNECTIONS * WIDE} writers`, result.wide.raw_cpu)]
          : []),
        cpuRow(
          `POST /v1/seat/chat/message, one seat, ${CONNECTIONS * WIDE} connections`,
          result.wide.cpu,
        ),
        cpuRow('HTTP alone (bare Fastify, the same requests and answer)', result.http_alone.cpu),
      ],
    );
  }
  if (verify) {
    console.log(
      `acknowledged ${verify.acknowledged}, stored ${verify.stored}: missing ${verify.missing}, ` +
        `doubled ${verify.doubled}, other id ${verify.wrong_id}`,
    );
  }
  finishReport('sends', started, target.kind, problems, {
    machine,
    options: {
      connections: CONNECTIONS,
      chats: CHATS,
      seats: SEATS,
      wide: WIDE,
      rounds: opt.rounds,
      seconds: opt.seconds,
    },
    result,
    verify,
    rounds,
  });
}

/**
 * `n` more seats, each with its own account and `chatsEach` chats in its Ungrouped group (the
 * seats and accounts through the CLI, the chats inserted as the seed does).
 */
async function addSeats(db, env, n, chatsEach) {
  const seats = [];
  for (let k = 1; k <= n; k++) {
    const seat = { account: `bench-${k}`, password: `bench-password-${k}` };
    const phone = `+1555030${String(k).padStart(4, '0')}`;
    runCli(['seat:create', seat.account, '--password', seat.password], env);
    runCli(['account:add', phone, '--label', `Bench seat ${k}`], env);
    runCli(['account:assign', phone, seat.account], env);
    const { id } = await db.get('SELECT id FROM seats WHERE account = ?', [seat.account]);
    const group = await db.get(
      `SELECT id FROM seat_groups WHERE seat_id = ? AND type = 'ungrouped'`,
      [id],
    );
    const now = Date.now();
    seat.chats = [];
    for (let c = 0; c < chatsEach; c++) {
      const receiver = `+4930${String(k).padStart(3, '0')}${String(c).padStart(5, '0')}`;
      seat.chats.push(
        await db.get(
          `INSERT INTO sessions (seat_id, send_phone, receiver_phone, group_id, is_top,
             un_read_count, add_time, latest_time, blocked)
           VALUES (?, ?, ?, ?, 0, 0, ?, ?, 0) RETURNING id, send_phone, receiver_phone`,
          [id, phone, receiver, group.id, now, now],
        ),
      );
    }
    seats.push(seat);
  }
  return seats;
}

runBench(main, 15);
