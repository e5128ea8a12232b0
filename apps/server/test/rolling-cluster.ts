import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './loopback.js';
import { startNginx, type Nginx } from './nginx.js';
import { adminOf, seatWithChatByAdmin, startServer, type ServerProcess } from './server-process.js';
import { PushClient } from './ws-client.js';

/**
 * Two built instances on one PostgreSQL database and Redis behind deploy/nginx.conf as shipped,
 * a steady load of operators through nginx, and the rolling restart of docs/deploy.md ("Stopping
 * and rolling restarts"): for each instance, SIGTERM, wait for its exit, start it again on the
 * same address, wait for /healthz 200 and then ROLL_SETTLE_MS, then the next. Used by
 * rolling-upgrade.test.ts and (longer, with more load) bench/rolling-restart.mjs.
 */

/** nginx's fail_timeout (2 s, counted in whole seconds) and a second: docs/deploy.md. */
export const ROLL_SETTLE_MS = 3_000;

export type FailureKind = 'http' | 'reset' | 'non-envelope' | 'coded' | 'socket';
export interface Failure {
  at: number;
  kind: FailureKind;
  what: string;
}

interface Operator {
  name: string;
  token: string;
  phone: string;
  customer: string;
  /** Acknowledged sends: client_msg_id -> msg_id. */
  acked: Map<string, number>;
  /** Every message.created msg_id its console received, over all its connections. */
  pushed: Set<number>;
  lastEventId: number;
  connections: number;
  resets: number;
}

export interface Figures {
  operators: number;
  seconds: number;
  requests: number;
  failed: number;
  failures: Failure[];
  acked: number;
  lost: number;
  doubled: number;
  pushMissed: number;
  consolesMissing: number;
  pushResets: number;
  resumes: number;
  exits: (number | null)[];
  rollMs: number[];
}

export interface ClusterOptions {
  adminUrl: string;
  redisUrl: string;
  operators: number;
  /** dist/main.js the instances start on (the previous release's for the upgrade form). */
  fromMain?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class RollingCluster {
  env: Record<string, string> = {};
  nginx!: Nginx;
  instances: ServerProcess[] = [];
  ports: number[] = [];
  exits: (number | null)[] = [];
  rollMs: number[] = [];
  private ops: Operator[] = [];
  private consoles = new Set<PushClient>();
  private failures: Failure[] = [];
  private requests = 0;
  private running = false;
  private loops: Promise<void>[] = [];
  private startedAt = 0;
  private readonly dbName = `parley_roll_${randomBytes(4).toString('hex')}`;
  private readonly dataDir = mkdtempSync(path.join(tmpdir(), 'parley-roll-'));

  constructor(private readonly opts: ClusterOptions) {}

  async start() {
    const admin = new pg.Client({ connectionString: this.opts.adminUrl });
    await admin.connect();
    await admin.query(`create database ${this.dbName}`);
    await admin.end();
    this.env = {
      DATABASE_URL: this.opts.adminUrl.replace(/\/[^/]*$/, `/${this.dbName}`),
      REDIS_URL: this.opts.redisUrl,
      PARLEY_DATA_DIR: this.dataDir,
      PARLEY_DEMO: 'off',
      PARLEY_RATE_LIMIT_PER_MINUTE: '1000000',
      // nginx never asks /healthz: the grace only delays; compose.yaml's 2 s is the same.
      PARLEY_SHUTDOWN_GRACE_MS: '500',
      PARLEY_SHUTDOWN_TIMEOUT_MS: '10000',
      PARLEY_TRUST_PROXY: '127.0.0.1',
    };
    this.ports = [await freePort(), await freePort()];
    // The first start migrates the empty database; the second starts on it.
    this.instances[0] = await this.startInstance(0, this.opts.fromMain);
    this.instances[1] = await this.startInstance(1, this.opts.fromMain);
    this.nginx = await startNginx(this.ports.map((p) => `127.0.0.1:${p}`));
    // One CLI run for an administrator, then the seats through the admin API, side by side.
    const adminToken = await adminOf(this.env, this.nginx.base);
    const ops = await Promise.all(
      Array.from({ length: this.opts.operators }, async (_, i) => {
        const n = String(i).padStart(3, '0');
        const name = `roll-op-${n}`;
        const chat = await seatWithChatByAdmin(
          this.nginx.base,
          adminToken,
          name,
          `+1555060${n.padStart(4, '0')}`,
          `+4477009${n.padStart(5, '0')}`,
        );
        return { name, ...chat };
      }),
    );
    for (const op of ops) {
      this.ops.push({
        ...op,
        acked: new Map(),
        pushed: new Set(),
        lastEventId: 0,
        connections: 0,
        resets: 0,
      });
    }
  }

  private startInstance(i: number, main?: string) {
    return startServer({ ...this.env, PORT: String(this.ports[i]) }, main);
  }

  /** Operators reading, sending with client_msg_id and holding push sockets that resume. */
  async startLoad() {
    this.running = true;
    this.startedAt = Date.now();
    for (const op of this.ops) {
      this.loops.push(this.console(op));
      await this.waitConsole(op);
    }
    for (const op of this.ops) this.loops.push(this.operator(op));
  }

  private async waitConsole(op: Operator) {
    while (op.connections === 0) await sleep(10);
  }

  /** Milliseconds since the load started (a Failure's `at`). */
  elapsed() {
    return Date.now() - this.startedAt;
  }

  private fail(kind: FailureKind, what: string) {
    this.failures.push({ at: Date.now() - this.startedAt, kind, what });
  }

  /** One call through nginx, as the console sends it: anything but a 000000 envelope fails. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private async call(op: Operator, urlPath: string, body: unknown): Promise<any> {
    this.requests += 1;
    let res: Response;
    try {
      res = await fetch(this.nginx.base + urlPath, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: op.token },
        body: JSON.stringify(body),
      });
    } catch (err) {
      const code = (err as { cause?: { code?: string } }).cause?.code ?? String(err);
      this.fail('reset', `${urlPath}: ${code}`);
      return null;
    }
    const text = await res.text().catch((err: unknown) => `(body cut: ${String(err)})`);
    if (res.status !== 200) {
      this.fail('http', `${urlPath}: HTTP ${res.status} ${text.slice(0, 120)}`);
      return null;
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let envelope: any;
    try {
      envelope = JSON.parse(text);
    } catch {
      this.fail('non-envelope', `${urlPath}: ${text.slice(0, 120)}`);
      return null;
    }
    if (envelope?.code !== '000000') {
      this.fail('coded', `${urlPath}: ${text.slice(0, 160)}`);
      return null;
    }
    return envelope.data;
  }

  private async operator(op: Operator) {
    let n = 0;
    while (this.running) {
      await this.call(op, '/v1/seat/chat/getChatRecord', {
        send_phone: op.phone,
        receiver_phone: op.customer,
        page_size: 20,
      });
      const clientMsgId = `${op.name}-${++n}`;
      // A send that failed is sent again with its client_msg_id, as the console does.
      for (let tries = 0; this.running || tries === 0; tries++) {
        const data = await this.call(op, '/v1/seat/chat/message', {
          send_phone: op.phone,
          receiver_phone: op.customer,
          type: 'text',
          content: `roll ${clientMsgId}`,
          client_msg_id: clientMsgId,
        });
        if (data) {
          const before = op.acked.get(clientMsgId);
          if (before !== undefined && before !== data.msg_id) {
            this.fail('coded', `${clientMsgId} acknowledged as ${before} and ${data.msg_id}`);
          }
          op.acked.set(clientMsgId, data.msg_id as number);
          break;
        }
        await sleep(100);
      }
      await sleep(50);
    }
  }

  /** The console's push connection: on any close it comes back with its last event id. */
  private async console(op: Operator) {
    while (this.running) {
      let client: PushClient;
      try {
        client = await PushClient.open(this.nginx.base, {
          token: op.token,
          last_event_id: op.lastEventId,
        });
      } catch (err) {
        this.fail('socket', `open: ${String(err)}`);
        await sleep(200);
        continue;
      }
      this.consoles.add(client);
      op.connections += 1;
      let seen = 0;
      while (!client.closed) {
        await client.until(
          () => (client.frames.length > seen || client.closed ? true : undefined),
          'frame',
          3_600_000,
        );
        for (const frame of client.frames.slice(seen)) {
          if (frame.kind === 'reset') op.resets += 1;
          if (frame.kind !== 'event') continue;
          op.lastEventId = Math.max(op.lastEventId, frame.id);
          if (frame.type === 'message.created') {
            op.pushed.add((frame.data as { message: { msg_id: number } }).message.msg_id);
          }
        }
        seen = client.frames.length;
      }
      this.consoles.delete(client);
      // 1012 (service restart) and a socket cut (an instance killed): at once, as the console.
      if (client.closed.code !== 1012 && client.closed.code !== 1006 && this.running) {
        this.fail('socket', `closed ${client.closed.code}`);
      }
    }
  }

  /** docs/deploy.md's procedure for instance `i`; `signal` SIGKILL: the instance dies instead. */
  async roll(i: number, main?: string, signal: NodeJS.Signals = 'SIGTERM') {
    const began = Date.now();
    const code = await this.instances[i]!.stop(signal);
    this.exits.push(code);
    this.instances[i] = await this.startInstance(i, main);
    for (;;) {
      const ok = await fetch(`${this.instances[i]!.base}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      await sleep(100);
    }
    await sleep(ROLL_SETTLE_MS);
    this.rollMs.push(Date.now() - began);
  }

  /** Stops the load, waits for the consoles to catch up, counts, stops everything. */
  async finish(): Promise<Figures> {
    // Load for a moment on the rolled cluster, then the last sends' pushes.
    await sleep(1_000);
    this.running = false;
    const seconds = (Date.now() - this.startedAt) / 1000;
    const missing = () =>
      this.ops.map((op) => [...op.acked.values()].filter((id) => !op.pushed.has(id)).length);
    for (let waited = 0; missing().some((m) => m > 0) && waited < 15_000; waited += 100) {
      await sleep(100);
    }
    const missed = missing();
    for (const c of this.consoles) c.close();
    await Promise.all(this.loops);

    const db = new pg.Client({ connectionString: this.env.DATABASE_URL });
    await db.connect();
    let lost = 0;
    let doubled = 0;
    try {
      const { rows } = await db.query<{ id: string; client_msg_id: string }>(
        "select id, client_msg_id from messages where client_msg_id like 'roll-op-%'",
      );
      const byClientId = new Map<string, string[]>();
      for (const r of rows) {
        byClientId.set(r.client_msg_id, [...(byClientId.get(r.client_msg_id) ?? []), r.id]);
      }
      for (const op of this.ops) {
        for (const [clientMsgId, msgId] of op.acked) {
          const stored = byClientId.get(clientMsgId) ?? [];
          if (!stored.map(Number).includes(msgId)) lost += 1;
          if (stored.length > 1) doubled += 1;
        }
      }
    } finally {
      await db.end();
    }
    return {
      operators: this.ops.length,
      seconds,
      requests: this.requests,
      failed: this.failures.length,
      failures: this.failures,
      acked: this.ops.reduce((n, op) => n + op.acked.size, 0),
      lost,
      doubled,
      pushMissed: missed.reduce((a, b) => a + b, 0),
      consolesMissing: missed.filter((m) => m > 0).length,
      pushResets: this.ops.reduce((n, op) => n + op.resets, 0),
      resumes: this.ops.reduce((n, op) => n + op.connections - 1, 0),
      exits: this.exits,
      rollMs: this.rollMs,
    };
  }

  /** Every instance SIGTERMed (their exit codes joined to `exits`), nginx, the database. */
  async stop() {
    this.running = false;
    for (const c of this.consoles) c.close();
    for (const s of this.instances) if (s) this.exits.push(await s.stop('SIGTERM'));
    await this.nginx?.stop();
    const admin = new pg.Client({ connectionString: this.opts.adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${this.dbName} with (force)`);
    await admin.end();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** One line of figures (the test's output and bench/rolling-restart.mjs). */
export function describeFigures(label: string, f: Figures): string {
  const kinds = f.failures.reduce<Record<string, number>>((m, x) => {
    m[x.kind] = (m[x.kind] ?? 0) + 1;
    return m;
  }, {});
  return (
    `${label}: ${f.operators} operators, ${f.seconds.toFixed(1)} s, ${f.requests} requests, ` +
    `${f.failed} failed ${JSON.stringify(kinds)}, ${f.acked} sends acknowledged (${f.lost} lost, ` +
    `${f.doubled} doubled), ${f.pushMissed} push events missed by ${f.consolesMissing} consoles, ` +
    `${f.resumes} resumes (${f.pushResets} reset), exits ${JSON.stringify(f.exits)}, ` +
    `roll steps ${f.rollMs.map((ms) => (ms / 1000).toFixed(1)).join(' / ')} s`
  );
}
