#!/usr/bin/env node
// API latency benchmark of the seat service on a large workspace (see bench/README.md).
//
//   npm run build && node bench/api-latency.mjs [--keep] [--quick] [--pg <postgres-url>]
//
// Seeds a fresh temp data dir (one seat, 10,000 chats, ~200,000 messages, one chat with 50,000),
// starts the built server on a free loopback port, measures the calls and stops the server.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  DAY,
  ROOT,
  SEAT,
  createTarget,
  gitCommit,
  log,
  openSeedDb,
  requireBuild,
  rssOf,
  round,
  runBench,
  seed,
  startServer,
  stopServer,
} from './lib/workspace.mjs';
import { startBareServer } from './lib/load.mjs';

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
requireBuild('api-latency.mjs');

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

// ---------------------------------------------------------------------------------------------
// Small helpers

function fail(message) {
  console.error(`\nERROR: ${message}`);
  process.exitCode = 1;
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

/** Server CPU time (user + system, ms) from /proc/<pid>/stat; robust to a busy machine. */
let serverPid = null;
/** The few-bytes ceiling's answer: an envelope with nothing in it. */
const FEW_BYTES = '{"code":"000000","msg":"success","data":{}}';
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
  const { target, env } = await createTarget(opt.pg);

  let server = null;
  let db = null;
  const results = [];
  const problems = [];
  let rss = null;
  let seedInfo;
  let loadBefore = null;
  try {
    seedInfo = await seed(target, env, { analyze: opt.analyze });
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

    // The ceilings of the two reads, measured like them by the same client: a bare node:http
    // server answering the same bytes, and the same server answering a few bytes.
    log('ceilings (bare node:http)…');
    const textOf = async (name, body) => {
      const res = await fetch(`${server.base}/v1/seat/chat/${name}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${login.data.token}`,
        },
        body: JSON.stringify(body),
      });
      return res.text();
    };
    const infoBody = { group_id: biggest, user_time_type: 2 };
    const bare = await startBareServer({
      '/v1/seat/chat/getGroupList': await textOf('getGroupList', {}),
      '/v1/seat/chat/getGroupInfo': await textOf('getGroupInfo', infoBody),
      '/v1/seat/chat/few': FEW_BYTES,
    });
    try {
      const b = makeClient(bare.url).call;
      const parleyPid = serverPid;
      serverPid = bare.pid;
      for (let i = 0; i < 20; i++) await b('few', {});
      for (const [name, call, body] of [
        ['ceiling: getGroupList bytes', (x) => b('getGroupList', x), {}],
        ['ceiling: getGroupInfo first page bytes', (x) => b('getGroupInfo', x), infoBody],
        ['ceiling: a few bytes', (x) => b('few', x), {}],
      ]) {
        results.push(await sequential(name, SEQ_REQUESTS, () => [call, body]));
        results.push(await concurrent(name, CONC_REQUESTS, () => [call, body]));
      }
      serverPid = parleyPid;
    } finally {
      await bare.stop();
    }

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
  // Each read beside its two ceilings (p50 and req/s, the same mode).
  const find = (name, mode) => results.find((r) => r.name === name && r.mode === mode);
  for (const [name, same] of [
    ['getGroupList', 'ceiling: getGroupList bytes'],
    ['getGroupInfo first page (tab 2)', 'ceiling: getGroupInfo first page bytes'],
  ]) {
    for (const mode of ['sequential', `concurrency ${CONCURRENCY}`]) {
      const r = find(name, mode);
      const c = find(same, mode);
      const few = find('ceiling: a few bytes', mode);
      if (!r || !c || !few) continue;
      const ratio = (a, b) => round(a / b, 2);
      console.log(
        `${name} (${mode}): p50 ${r.p50_ms} ms = ${ratio(r.p50_ms, c.p50_ms)}× the same bytes ` +
          `(${c.p50_ms} ms), ${ratio(r.p50_ms, few.p50_ms)}× a few bytes (${few.p50_ms} ms); ` +
          `req/s ${ratio(r.req_per_s, c.req_per_s)} and ${ratio(r.req_per_s, few.req_per_s)} of theirs`,
      );
    }
  }
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

runBench(main, GLOBAL_TIMEOUT_MS / 60_000);
