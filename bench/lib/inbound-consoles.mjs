// A child process of bench/inbound.mjs holding a share of the consoles' push sockets. Each
// message.created frame of a bench message is timed against the send time the message
// carries (`bench <run>.<seq> <epoch ms>`; a frame of an earlier run, late behind a backlog,
// is not counted), into a histogram; deliveries are counted per message and
// per socket (a second delivery to one socket is a double). The parent talks over IPC:
//   { cmd: 'connect', sockets: [{ base, token, seat }] }  -> { connected }
//   { cmd: 'start', run, total, seats }                     (a new run: counters reset)
//   { cmd: 'count' }                                       -> { delivered }
//   { cmd: 'report' }                                      -> { hist, counts, doubled, frames }
//   { cmd: 'close' }                                       -> { closed }
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const require = createRequire(new URL('../../apps/server/package.json', import.meta.url));
const WebSocket = require('ws');

/** 0.1 ms buckets up to 1 s, then 10 ms buckets up to 10 min. */
export const FINE = 10_000;
export const HIST_SIZE = FINE + 60_000;
export const bucketOf = (ms) =>
  ms < 1000
    ? Math.max(0, Math.floor(ms * 10))
    : Math.min(HIST_SIZE - 1, FINE + Math.floor((ms - 1000) / 10));
export const msOf = (bucket) => (bucket < FINE ? bucket / 10 : 1000 + (bucket - FINE) * 10);

const now = () => performance.timeOrigin + performance.now();
const CREATED = Buffer.from('"type":"message.created"');
const BENCH = /"content":"bench (\d+)\.(\d+) ([\d.]+)"/;

let sockets = [];
let hist = new Int32Array(HIST_SIZE);
let counts = new Uint16Array(0);
let seen = []; // per socket: a bitmap of the seqs of its seat it got
let seats = 1;
let run = -1;
let doubled = 0;
let delivered = 0;
let frames = 0;

function onFrame(conn, raw) {
  const at = now();
  frames += 1;
  // Only a message's frame is read as text (the others are counted).
  if (raw.indexOf(CREATED) < 0) return;
  const m = BENCH.exec(raw.toString());
  if (!m) return;
  if (Number(m[1]) !== run) return;
  const seq = Number(m[2]);
  if (seq >= counts.length) return;
  const bit = Math.floor(seq / seats);
  const bits = seen[conn.index];
  if (bits[bit]) {
    doubled += 1;
    return;
  }
  bits[bit] = 1;
  counts[seq] += 1;
  delivered += 1;
  hist[bucketOf(at - Number(m[3]))] += 1;
}

function connect({ base, token }, index) {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/seat/realtime`);
  const conn = { ws, index };
  return new Promise((resolve, reject) => {
    let ready = false;
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ token, last_event_id: 0 })));
    ws.on('message', (raw) => {
      if (ready) return onFrame(conn, raw);
      const frame = JSON.parse(String(raw));
      if (frame.kind === 'ready' || frame.kind === 'reset') {
        ready = true;
        resolve(conn);
      } else if (frame.kind === 'error') reject(new Error(`push refused: ${frame.code}`));
    });
  });
}

process.on('message', async (msg) => {
  if (msg.cmd === 'connect') {
    for (const conn of sockets) conn.ws.terminate();
    sockets = [];
    // A few at a time: the server's hello reads the database.
    for (let i = 0; i < msg.sockets.length; i += 10) {
      sockets.push(
        ...(await Promise.all(msg.sockets.slice(i, i + 10).map((s, j) => connect(s, i + j)))),
      );
    }
    process.send({ connected: sockets.length });
  } else if (msg.cmd === 'start') {
    seats = msg.seats;
    run = msg.run;
    hist = new Int32Array(HIST_SIZE);
    counts = new Uint16Array(msg.total);
    seen = sockets.map(() => new Uint8Array(Math.ceil(msg.total / seats) + 1));
    doubled = 0;
    delivered = 0;
    frames = 0;
    process.send({ started: true });
  } else if (msg.cmd === 'count') {
    process.send({ delivered });
  } else if (msg.cmd === 'report') {
    process.send({ hist: [...hist], counts: [...counts], doubled, frames });
  } else if (msg.cmd === 'close') {
    for (const conn of sockets) conn.ws.terminate();
    sockets = [];
    process.send({ closed: true });
  }
});
