// Load generation for the throughput benchmarks (reads.mjs, sends.mjs): autocannon over
// keep-alive connections, the server's CPU from /proc, and a bare node:http ceiling.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import path from 'node:path';
import { ROOT, freePort, gitCommit, round, sleep } from './workspace.mjs';

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

/** /proc/<pid>/stat's fields after the command name (fields[0] is the state, field 3). */
function statFields(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU time (user + system, ms) of a process, from /proc/<pid>/stat; null when unreadable. */
export function cpuMsOf(pid) {
  try {
    const fields = statFields(pid);
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
  } catch {
    return null;
  }
}

/**
 * CPU ms so far of every local PostgreSQL process: the live ones, plus what the postmaster's
 * exited children used (a closed connection's backend: cutime + cstime). Null when no
 * PostgreSQL runs on this machine (a remote database).
 */
function postgresCpuMs() {
  let ms = 0;
  let found = false;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const f = statFields(entry);
      ms += (Number(f[11]) + Number(f[12])) * CLOCK_TICK_MS;
      // The postmaster (its parent is not PostgreSQL) holds its exited children's time.
      const parent = readFileSync(`/proc/${f[1]}/comm`, 'utf8').trim();
      if (parent !== 'postgres') ms += (Number(f[13]) + Number(f[14])) * CLOCK_TICK_MS;
      found = true;
    } catch {
      // gone meanwhile
    }
  }
  return found ? ms : null;
}

/** The machine's busy and total CPU ms over all cores (/proc/stat). */
function machineCpuMs() {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const n = ticks.map(Number);
  const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: (total - n[3] - n[4]) * CLOCK_TICK_MS, total: total * CLOCK_TICK_MS };
}

/**
 * Where the machine's CPU goes while `work` runs: the server's, PostgreSQL's (every local
 * process of it) and this process's (the load generator, or the raw loop's client), each per
 * message, and how busy the cores were. Answers `work`'s result with `cpu` added. `postgres`:
 * the run is on PostgreSQL (else its CPU is not counted).
 */
export async function withCpuSplit({ serverPid, postgres: onPostgres }, work, count) {
  const before = {
    server: serverPid ? cpuMsOf(serverPid) : null,
    postgres: onPostgres ? postgresCpuMs() : null,
    self: process.cpuUsage(),
    machine: machineCpuMs(),
  };
  const result = await work();
  const self = process.cpuUsage(before.self);
  const machine = machineCpuMs();
  const n = count(result);
  const per = (ms) => (ms === null || !n ? null : round(ms / n, 4));
  const server = before.server === null ? null : cpuMsOf(serverPid) - before.server;
  const pgNow = onPostgres ? postgresCpuMs() : null;
  const postgres = before.postgres === null || pgNow === null ? null : pgNow - before.postgres;
  const generator = (self.user + self.system) / 1000;
  const total = (server ?? 0) + (postgres ?? 0) + generator;
  return {
    ...result,
    cpu: {
      server_ms_per_msg: per(server),
      postgres_ms_per_msg: per(postgres),
      generator_ms_per_msg: per(generator),
      total_ms_per_msg: per(total),
      machine_busy_share: round(
        (machine.busy - before.machine.busy) / (machine.total - before.machine.total || 1),
        3,
      ),
    },
  };
}

/**
 * Runs autocannon against one POST call for `seconds` (bounded also by `maxRequests`) and
 * answers req/s, latency percentiles and the server's CPU per answered request. `body(i)`
 * makes the i-th request's JSON body; `onAnswer(body, i)` sees each answer (checks, acks).
 */
export async function measure({
  url,
  pid,
  connections,
  seconds,
  maxRequests,
  headers = {},
  /** Headers of request i on top of `headers` (a seat's token, say). */
  headersFor,
  body,
  onAnswer,
}) {
  let sent = 0;
  let answered = 0;
  const cpu0 = cpuMsOf(pid);
  const result = await autocannon({
    url,
    connections,
    pipelining: 1,
    duration: seconds,
    ...(maxRequests ? { maxOverallRequests: maxRequests } : {}),
    timeout: 10,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        setupRequest: (req, context) => {
          context.i = sent++;
          return {
            ...req,
            ...(headersFor ? { headers: { ...req.headers, ...headersFor(context.i) } } : {}),
            body: body(context.i),
          };
        },
        onResponse: (status, text, context) => {
          answered++;
          onAnswer?.(status, text, context.i);
        },
      },
    ],
  });
  const cpu1 = cpuMsOf(pid);
  const ok = result['2xx'];
  return {
    connections,
    seconds: round(result.duration),
    requests: ok,
    answered,
    errors: result.errors + result.timeouts + result.non2xx,
    req_per_s: round(ok / result.duration, 1),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    max_ms: result.latency.max,
    server_cpu_ms_per_req: cpu0 === null || !ok ? null : round((cpu1 - cpu0) / ok, 3),
  };
}

/**
 * The ceiling: a bare node:http server in its own process that reads and parses each POST body
 * and answers `bodies[path]` (the same bytes the real call answers) with the same content type.
 */
export async function startBareServer(bodies, { fastify = false } = {}) {
  const port = await freePort();
  const nodeHttp = `
    const http = require('node:http');
    http.createServer((req, res) => {
      const body = bodies[req.url];
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
        res.end(body);
      });
    }).listen(${port}, '127.0.0.1', () => process.send('ready'));
  `;
  // The framework alone: Fastify with its JSON body parser and one route per body, no plugin.
  const bareFastify = `
    const app = require('fastify')();
    for (const [url, body] of Object.entries(bodies)) {
      app.post(url, (req, reply) => { reply.type('application/json; charset=utf-8').send(body); });
    }
    app.listen({ port: ${port}, host: '127.0.0.1' }).then(() => process.send('ready'));
  `;
  const source = `
    const bodies = JSON.parse(process.env.BARE_BODIES);
    for (const k of Object.keys(bodies)) bodies[k] = Buffer.from(bodies[k], 'utf8');
    ${fastify ? bareFastify : nodeHttp}
  `;
  const child = spawn(process.execPath, ['-e', source], {
    // Fastify resolves from the server's workspace.
    cwd: path.join(ROOT, 'apps/server'),
    env: { ...process.env, BARE_BODIES: JSON.stringify(bodies) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`bare server exited (${code})`)));
  });
  return {
    pid: child.pid,
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await sleep(50);
    },
  };
}

/** The median of a list of numbers (null for none). */
export function median(list) {
  const sorted = list.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
  if (!sorted.length) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A markdown-ish table: first column left-aligned, the others right-aligned. */
export function printTable(header, rows) {
  const cells = rows.map((r) => r.map((c) => (c === null || c === undefined ? '' : String(c))));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const line = (r) =>
    '| ' +
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ') +
    ' |';
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of cells) console.log(line(r));
}

/**
 * The options of reads.mjs and sends.mjs: --quick (1 round of 4 s), --keep, --rounds N,
 * --seconds S, --pg <url>, and with `only` --only <call>.
 */
export function benchOptions(script, { only = false } = {}) {
  const argv = process.argv.slice(2);
  const opt = { quick: false, keep: false, rounds: 3, seconds: 8, pg: null, only: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') opt.quick = true;
    else if (a === '--keep') opt.keep = true;
    else if (a === '--rounds') opt.rounds = Number(argv[++i]);
    else if (a === '--seconds') opt.seconds = Number(argv[++i]);
    else if (only && a === '--only') opt.only = argv[++i];
    else if (a === '--suffix') opt.suffix = argv[++i];
    else if (a === '--pg') opt.pg = argv[++i] ?? null;
    else if (a.startsWith('--pg=')) opt.pg = a.slice(5);
    else {
      console.error(
        `usage: node bench/${script} [--quick] [--keep] [--rounds N] [--seconds S]` +
          `${only ? ' [--only <call>]' : ''} [--pg <postgres-url>] [--suffix <name>]`,
      );
      process.exit(a === '--help' || a === '-h' ? 0 : 2);
    }
  }
  if (opt.quick) {
    opt.rounds = 1;
    opt.seconds = 4;
  }
  return opt;
}

/** What the figures were measured on, with the load before and after the run. */
export function machineOf(loadBefore) {
  return {
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    load_avg_1m_before: round(loadBefore),
    load_avg_1m_after: round(os.loadavg()[0]),
  };
}

/**
 * Prints the run's problems (exit code 1) and writes the report with its run line to
 * bench/results/<name>-<date>[-pg].json.
 */
export function finishReport(name, started, kind, problems, report) {
  for (const p of problems) {
    console.error(`ERROR: ${p}`);
    process.exitCode = 1;
  }
  const dir = path.join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const date = started.toISOString().slice(0, 10);
  // --suffix keeps an earlier run's file of the same day (e.g. before/after a change).
  const suffix = process.argv.includes('--suffix')
    ? `-${process.argv[process.argv.indexOf('--suffix') + 1]}`
    : '';
  const file = path.join(dir, `${name}-${date}${kind === 'pg' ? '-pg' : ''}${suffix}.json`);
  const full = {
    benchmark: name,
    started_at: started.toISOString(),
    database: kind,
    git_commit: gitCommit(),
    ...report,
    problems,
  };
  writeFileSync(file, `${JSON.stringify(full, null, 2)}\n`);
  console.log(`wrote ${path.relative(ROOT, file)}`);
}
