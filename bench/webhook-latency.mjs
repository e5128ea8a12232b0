// Latency from an inbound platform webhook to the operator's WebSocket (see bench/README.md).
// Usage: npm run build && node bench/webhook-latency.mjs
//   [--rate 50] [--seconds 20] [--seats 20] [--consoles 10] [--pg postgres://…]
import { createHmac } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  createTarget,
  log,
  requireBuild,
  round,
  ROOT,
  runCli,
  sleep,
  startServer,
  stopServer,
} from './lib/workspace.mjs';
import { connectPush } from './lib/ws-client.mjs';

requireBuild('webhook-latency.mjs');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const RATE = Number(opt('rate', 50));
const SECONDS = Number(opt('seconds', 20));
const SEATS = Number(opt('seats', 20));
const CONSOLES = Number(opt('consoles', 10));
const PG = opt('pg', null);
const SECRET = 'bench-platform-secret';
const PASSWORD = 'bench-password-1';

const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : null;

const { target, env: baseEnv } = await createTarget(PG);
const env = {
  ...baseEnv,
  PARLEY_SANDBOX: '0',
  LOG_LEVEL: 'warn',
  PARLEY_PLATFORM_SECRET: SECRET,
};
log(`seeding ${SEATS} seats with one account each`);
const seats = [];
for (let i = 0; i < SEATS; i++) {
  const account = `bench${i}`;
  const phone = `+1555030${String(i).padStart(4, '0')}`;
  runCli(['seat:create', account, '--password', PASSWORD], env);
  runCli(['account:add', phone], env);
  runCli(['account:assign', phone, account], env);
  seats.push({ account, phone });
}

const server = await startServer(env);
const received = new Map(); // seq -> [receive times]
const sentAt = new Map();
const sockets = [];
try {
  for (const seat of seats) {
    const res = await fetch(`${server.base}/v1/seat/chat/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: seat.account, password: PASSWORD }),
    });
    seat.token = (await res.json()).data.token;
    for (let c = 0; c < CONSOLES; c++) {
      const push = await connectPush(server.base, seat.token, {
        onEvent: (frame, receivedAt) => {
          if (frame.type !== 'message.created') return;
          const m = /^bench (\d+)$/.exec(frame.data.message.content);
          if (!m) return;
          const list = received.get(Number(m[1])) ?? [];
          list.push(receivedAt);
          received.set(Number(m[1]), list);
        },
      });
      sockets.push(push);
    }
  }
  log(`${sockets.length} consoles connected; ${RATE} webhooks/s for ${SECONDS} s`);

  const total = Math.round(RATE * SECONDS);
  const interval = 1000 / RATE;
  const start = performance.now();
  const inflight = [];
  let errors = 0;
  for (let seq = 0; seq < total; seq++) {
    const due = start + seq * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const seat = seats[seq % seats.length];
    const body = JSON.stringify({
      id: `bench-${seq}`,
      account: seat.phone,
      customer: `+4477009${String(seq % 500).padStart(5, '0')}`,
      type: 'text',
      content: `bench ${seq}`,
    });
    const ts = String(Math.floor(Date.now() / 1000));
    const sig = createHmac('sha256', SECRET).update(`${ts}.`).update(body).digest('hex');
    sentAt.set(seq, performance.now());
    inflight.push(
      fetch(`${server.base}/v1/platform/messages`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-parley-timestamp': ts,
          'x-parley-signature': sig,
        },
        body,
      })
        .then((r) => r.json())
        .then((j) => {
          if (j.code !== '000000') errors++;
        })
        .catch(() => errors++),
    );
  }
  await Promise.all(inflight);
  const settle = performance.now() + 5000;
  while (
    performance.now() < settle &&
    [...sentAt.keys()].some((s) => (received.get(s) ?? []).length < CONSOLES)
  ) {
    await sleep(50);
  }

  const first = [];
  const all = [];
  let missing = 0;
  for (const [seq, at] of sentAt) {
    const times = received.get(seq) ?? [];
    if (times.length < CONSOLES) missing += CONSOLES - times.length;
    if (times.length) first.push(Math.min(...times) - at);
    for (const t of times) all.push(t - at);
  }
  first.sort((a, b) => a - b);
  all.sort((a, b) => a - b);
  const row = (name, list) => ({
    name,
    n: list.length,
    p50: round(percentile(list, 50)),
    p95: round(percentile(list, 95)),
    p99: round(percentile(list, 99)),
    max: round(list.at(-1)),
  });
  const result = {
    date: new Date().toISOString(),
    db: PG ? 'pg' : 'sqlite',
    machine: `${os.cpus().length} CPU(s) ${os.cpus()[0]?.model.trim()}, Node ${process.version}, load ${os.loadavg()[0].toFixed(2)}`,
    rate: RATE,
    seconds: SECONDS,
    seats: SEATS,
    consoles: sockets.length,
    webhooks: total,
    webhook_errors: errors,
    missing_deliveries: missing,
    rows: [row('first console of the seat', first), row('every console of the seat', all)],
  };
  console.log(
    `Webhook → WebSocket latency, ${result.db} | ${result.machine}\n` +
      `${total} webhooks at ${RATE}/s, ${SEATS} seats × ${CONSOLES} consoles = ${sockets.length} sockets; ` +
      `errors ${errors}, missing ${missing} | ms\n` +
      '| measured                   |     n |   p50 |   p95 |   p99 |    max |\n' +
      '| -------------------------- | ----- | ----- | ----- | ----- | ------ |\n' +
      result.rows
        .map(
          (r) =>
            `| ${r.name.padEnd(26)} | ${String(r.n).padStart(5)} | ${String(r.p50).padStart(5)} | ${String(r.p95).padStart(5)} | ${String(r.p99).padStart(5)} | ${String(r.max).padStart(6)} |`,
        )
        .join('\n'),
  );
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  const file = path.join(
    ROOT,
    `bench/results/webhook-latency-${result.date.slice(0, 10)}${PG ? '-pg' : ''}.json`,
  );
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  log(`wrote ${path.relative(ROOT, file)}`);
  if (errors || missing) process.exitCode = 1;
} finally {
  for (const ws of sockets) ws.close();
  await stopServer(server);
  rmSync(env.PARLEY_DATA_DIR, { recursive: true, force: true });
  if (target.kind === 'pg') {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: target.url });
    await admin.connect();
    await admin.query(`DROP SCHEMA ${target.schema} CASCADE`);
    await admin.end();
  }
}
