// One load-generator process of bench/operators.mjs: plays its share of the operators' consoles
// against the server and reports what it measured. Started by the coordinator with fork(); talks
// to it over IPC only:
//   coordinator -> { type: 'start', base, operators, rampMs, inStep, measureAtStart, timeoutMs,
//                    runId }
//               -> { type: 'measure' }   start counting (everything before is warm-up)
//               -> { type: 'report' }    answers { type: 'report', stats }
//               -> { type: 'stop' }      closes every socket and exits
// Each console, like the web console: a push socket (reconnecting with its last event id), the
// group list every 10 s, the open chat's record every 5 s, a text every 20 s; each on its own
// phase so the consoles are not in step (unless inStep), and never two requests of one kind at
// once (a query still in flight is not fetched again, as TanStack Query does).
import http from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const require = createRequire(new URL('../../apps/server/package.json', import.meta.url));
const WebSocket = require('ws');

const PERIOD_MS = { getGroupList: 10_000, getChatRecord: 5_000, message: 20_000 };
const KINDS = Object.keys(PERIOD_MS);
/** A console switches to another of its chats on this share of its reads. */
const SWITCH_CHANCE = 0.2;

/** Wall-clock time with sub-millisecond precision, comparable between processes. */
const wallNow = () => performance.timeOrigin + performance.now();

let measuring = false;
let stopping = false;
/** Requests started while measuring and not yet answered: the report waits for them. */
let countedInFlight = 0;
const stats = newStats();

function newStats() {
  return {
    latencies: Object.fromEntries(KINDS.map((k) => [k, []])),
    errors: Object.fromEntries(KINDS.map((k) => [k, {}])),
    skipped: Object.fromEntries(KINDS.map((k) => [k, 0])),
    push: {
      events: {},
      /** message.created of a text this console sent, from its send. */
      own_send: [],
      /** message.created of a text another console of the seat sent, from that send. */
      other_console: [],
      /** message.created of a customer's message, from the platform webhook's POST. */
      inbound: [],
      connect_ms: [],
      connect_errors: {},
      closed: {},
      reconnects: 0,
    },
  };
}

function resetStats() {
  Object.assign(stats, newStats());
}

function count(map, key) {
  map[key] = (map[key] ?? 0) + 1;
}

/** One POST of a seat call on the console's own keep-alive connections. */
function call(op, path, body, timeoutMs) {
  const payload = JSON.stringify(body);
  return new Promise((resolve) => {
    const req = http.request(
      op.base + path,
      {
        method: 'POST',
        agent: op.agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          authorization: op.token,
        },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== 200) return resolve({ error: `http ${res.statusCode}` });
          try {
            const json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            resolve(json.code === '000000' ? { data: json.data } : { error: `code ${json.code}` });
          } catch {
            resolve({ error: 'bad json' });
          }
        });
        res.on('error', (err) => resolve({ error: `net ${err.code ?? err.message}` }));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })));
    req.on('error', (err) =>
      resolve({ error: err.code === 'timeout' ? 'timeout' : `net ${err.code ?? err.message}` }),
    );
    req.end(payload);
  });
}

class Console {
  constructor(spec, ctx) {
    Object.assign(this, spec);
    this.ctx = ctx;
    this.base = ctx.base;
    // A browser keeps up to 6 connections to a host; each console has its own.
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 6, localAddress: spec.address });
    this.chat = spec.chats[spec.id % spec.chats.length];
    this.inFlight = new Set();
    this.timers = [];
    this.sent = 0;
    this.lastEventId = 0;
    this.ws = null;
  }

  start() {
    this.connect();
    for (const kind of KINDS) {
      const period = PERIOD_MS[kind];
      const phase = this.ctx.inStep ? 0 : Math.random() * period;
      const first = setTimeout(() => {
        this.run(kind);
        this.timers.push(setInterval(() => this.run(kind), period));
      }, phase);
      this.timers.push(first);
    }
  }

  stop() {
    for (const t of this.timers) clearTimeout(t); // clears intervals too
    this.ws?.close();
    this.agent.destroy();
  }

  async run(kind) {
    if (stopping) return;
    if (this.inFlight.has(kind)) {
      if (measuring) stats.skipped[kind]++;
      return;
    }
    this.inFlight.add(kind);
    const counted = measuring;
    if (counted) countedInFlight++;
    const t0 = performance.now();
    const result = await call(this, `/v1/seat/chat/${kind}`, this.body(kind), this.ctx.timeoutMs);
    const ms = performance.now() - t0;
    this.inFlight.delete(kind);
    if (!counted) return;
    countedInFlight--;
    if (result.error) count(stats.errors[kind], result.error);
    else stats.latencies[kind].push(Math.round(ms * 100) / 100);
  }

  body(kind) {
    if (kind === 'getGroupList') return { seat_id: 1, reply: 0 };
    if (kind === 'getChatRecord') {
      if (Math.random() < SWITCH_CHANCE) {
        this.chat = this.chats[Math.floor(Math.random() * this.chats.length)];
      }
      return { ...this.chat, page_size: 20 };
    }
    this.sent++;
    return {
      ...this.chat,
      type: 'text',
      // Who sent it and when: any console of the seat times the push from this.
      content: `op ${this.id} ${wallNow().toFixed(2)}`,
      client_msg_id: `b${this.ctx.runId}o${this.id}n${this.sent}`,
    };
  }

  connect() {
    if (stopping) return;
    const t0 = performance.now();
    const ws = new WebSocket(`${this.base.replace(/^http/, 'ws')}/v1/seat/realtime`, {
      localAddress: this.address,
    });
    this.ws = ws;
    let ready = false;
    ws.on('open', () =>
      ws.send(JSON.stringify({ token: this.token, last_event_id: this.lastEventId })),
    );
    ws.on('message', (raw) => this.onFrame(JSON.parse(String(raw)), t0, () => (ready = true)));
    ws.on('error', (err) => {
      if (!ready && measuring) count(stats.push.connect_errors, err.code ?? err.message);
    });
    ws.on('close', (code) => {
      if (stopping) return;
      if (measuring) count(stats.push.closed, String(code));
      // The console's back-off: try again shortly, resuming from the last event it saw.
      setTimeout(
        () => {
          if (measuring) stats.push.reconnects++;
          this.connect();
        },
        1000 + Math.random() * 1000,
      );
    });
  }

  onFrame(frame, t0, markReady) {
    if (frame.kind === 'ready' || frame.kind === 'reset') {
      markReady();
      if (measuring) stats.push.connect_ms.push(Math.round((performance.now() - t0) * 100) / 100);
      if (frame.kind === 'reset') this.lastEventId = frame.last_event_id;
      return;
    }
    if (frame.kind === 'error') {
      if (measuring) count(stats.push.connect_errors, `code ${frame.code}`);
      return;
    }
    if (frame.kind !== 'event') return;
    this.lastEventId = frame.id;
    if (!measuring) return;
    count(stats.push.events, frame.type);
    if (frame.type !== 'message.created') return;
    const content = frame.data.message.content;
    const now = wallNow();
    let m = /^op (\d+) ([\d.]+)$/.exec(content);
    if (m) {
      const list = Number(m[1]) === this.id ? stats.push.own_send : stats.push.other_console;
      list.push(Math.round((now - Number(m[2])) * 100) / 100);
      return;
    }
    m = /^in ([\d.]+)/.exec(content);
    if (m) stats.push.inbound.push(Math.round((now - Number(m[1])) * 100) / 100);
  }
}

const consoles = [];

process.on('message', async (msg) => {
  if (msg.type === 'start') {
    const ctx = {
      base: msg.base,
      inStep: msg.inStep,
      timeoutMs: msg.timeoutMs,
      runId: msg.runId,
    };
    measuring = msg.measureAtStart;
    const gap = msg.operators.length ? msg.rampMs / msg.operators.length : 0;
    msg.operators.forEach((spec, i) => {
      const c = new Console(spec, ctx);
      consoles.push(c);
      setTimeout(() => c.start(), i * gap);
    });
  } else if (msg.type === 'measure') {
    resetStats();
    measuring = true;
  } else if (msg.type === 'report') {
    // Requests sent in the window count even when answered after it (a slow answer is the
    // point); they end at the latest at their time-out.
    measuring = false;
    const deadline = performance.now() + msg.waitMs;
    while (countedInFlight > 0 && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    process.send({
      type: 'report',
      stats,
      unanswered: countedInFlight,
      open_sockets: consoles.filter((c) => c.ws?.readyState === WebSocket.OPEN).length,
    });
  } else if (msg.type === 'stop') {
    stopping = true;
    measuring = false;
    for (const c of consoles) c.stop();
    setTimeout(() => process.exit(0), 200);
  }
});
process.on('disconnect', () => process.exit(0));
