#!/usr/bin/env node
// Read throughput of the seat API under load (see bench/README.md, "reads.mjs").
//
//   npm run build && node bench/reads.mjs [--quick] [--keep] [--rounds N] [--seconds S] [--pg <url>]
//
// Seeds the shared large workspace (10,000 chats, ~200,000 messages), starts the built server,
// and drives getGroupInfo (first page of the biggest group) and getGroupList at 50 keep-alive
// connections, against two ceilings measured in the same run: a bare node:http server answering
// the same bytes, and the same server answering a few bytes (what HTTP alone costs).
import os from 'node:os';
import {
  SEAT,
  createTarget,
  dropTarget,
  log,
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
} from './lib/load.mjs';

const opt = benchOptions('reads.mjs', { only: true });
requireBuild('reads.mjs');

const CONNECTIONS = 50;
/** A seat with few chats: the poll must cost the same whatever a seat holds. */
const SMALL_SEAT = { account: 'bench-small', password: 'bench-password-2', phone: '+15550200099' };
const SMALL_CHATS = 20;
/** The few-bytes ceiling's answer: an envelope with nothing in it. */
const FEW_BYTES = '{"code":"000000","msg":"success","data":{}}';

async function login(base, account, password) {
  const res = await fetch(`${base}/v1/seat/chat/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password }),
  });
  const json = await res.json();
  if (json.code !== '000000') throw new Error(`login answered ${json.code} ${json.msg}`);
  return json.data.token;
}

async function callText(base, token, name, body) {
  const res = await fetch(`${base}/v1/seat/chat/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const code = JSON.parse(text).code;
  if (code !== '000000') throw new Error(`${name} answered ${code}: ${text.slice(0, 200)}`);
  return text;
}

/** A second, small seat (CLI), with a few chats written by customers' messages. */
function seedSmallSeat(env) {
  runCli(['seat:create', SMALL_SEAT.account, '--password', SMALL_SEAT.password], env);
  runCli(['account:add', SMALL_SEAT.phone, '--label', 'Small seat line'], env);
  runCli(['account:assign', SMALL_SEAT.phone, SMALL_SEAT.account], env);
}

async function receiveSmallChats(base, token) {
  // Chats appear through the API path a console uses for an existing chat: addSession.
  for (let i = 0; i < SMALL_CHATS; i++) {
    await callText(base, token, 'addSession', {
      send_phone: SMALL_SEAT.phone,
      receiver_phone: `+1777${String(i).padStart(7, '0')}`,
      greeting: `Hello ${i}`,
      client_msg_id: `bench-small-chat-${i}`,
    });
  }
}

async function main() {
  const started = new Date();
  const { target, env } = await createTarget(opt.pg);
  let server = null;
  let bare = null;
  let bareFastify = null;
  const rounds = [];
  const problems = [];
  let seedInfo = null;
  let loadBefore = null;
  let payloadBytes = {};
  try {
    seedInfo = await seed(target, env);
    seedSmallSeat(env);
    log(`seeded ${seedInfo.chats} chats, ${seedInfo.messages} messages`);
    server = await startServer(env);
    const pid = server.child.pid;
    const token = await login(server.base, SEAT.account, SEAT.password);
    const smallToken = await login(server.base, SMALL_SEAT.account, SMALL_SEAT.password);
    await receiveSmallChats(server.base, smallToken);
    const biggest = seedInfo.group_ids.ungrouped;
    const infoBody = JSON.stringify({ group_id: biggest, user_time_type: 2, page_size: 50 });
    const listBody = JSON.stringify({ seat_id: 1, reply: 0 });
    const infoText = await callText(server.base, token, 'getGroupInfo', JSON.parse(infoBody));
    const listText = await callText(server.base, token, 'getGroupList', JSON.parse(listBody));
    const info = JSON.parse(infoText).data;
    if (info.account_list.length !== 50) problems.push('getGroupInfo: not a full page of 50');
    payloadBytes = {
      getGroupInfo: Buffer.byteLength(infoText),
      getGroupList: Buffer.byteLength(listText),
    };
    // The ceiling answers each call's own bytes: /info the user list page, /list the groups.
    bare = await startBareServer({ '/info': infoText, '/list': listText, '/few': FEW_BYTES });
    bareFastify = await startBareServer(
      { '/info': infoText, '/list': listText },
      { fastify: true },
    );
    loadBefore = os.loadavg()[0];

    const check = (name) => (status, text) => {
      if (status !== 200 || !text.startsWith('{"code":"000000"')) {
        if (problems.length < 20) problems.push(`${name}: ${status} ${text.slice(0, 120)}`);
      }
    };
    const auth = { authorization: `Bearer ${token}` };
    const scenarios = [
      {
        name: 'bare node:http (page body)',
        url: `${bare.url}/info`,
        pid: bare.pid,
        body: () => infoBody,
      },
      {
        name: 'bare node:http (list body)',
        url: `${bare.url}/list`,
        pid: bare.pid,
        body: () => listBody,
      },
      {
        name: 'bare node:http (few bytes)',
        url: `${bare.url}/few`,
        pid: bare.pid,
        body: () => listBody,
      },
      {
        name: 'bare Fastify (page body)',
        url: `${bareFastify.url}/info`,
        pid: bareFastify.pid,
        body: () => infoBody,
      },
      {
        name: 'bare Fastify (list body)',
        url: `${bareFastify.url}/list`,
        pid: bareFastify.pid,
        body: () => listBody,
      },
      {
        name: 'getGroupInfo',
        url: `${server.base}/v1/seat/chat/getGroupInfo`,
        pid,
        headers: auth,
        body: () => infoBody,
        onAnswer: check('getGroupInfo'),
      },
      {
        name: 'getGroupList',
        url: `${server.base}/v1/seat/chat/getGroupList`,
        pid,
        headers: auth,
        body: () => listBody,
        onAnswer: check('getGroupList'),
      },
      {
        name: `getGroupList (a seat of ${SMALL_CHATS} chats)`,
        url: `${server.base}/v1/seat/chat/getGroupList`,
        pid,
        headers: { authorization: `Bearer ${smallToken}` },
        body: () => listBody,
        onAnswer: check('getGroupList small'),
      },
    ];
    // --only <text>: the ceilings and the scenarios whose name holds it (profiling one call).
    if (opt.only) {
      const keep = scenarios.filter((x) => x.name.startsWith('bare') || x.name.includes(opt.only));
      scenarios.splice(0, scenarios.length, ...keep);
    }
    // Warm-up: JIT, statement caches, the page cache.
    for (const s of scenarios) await measure({ ...s, connections: CONNECTIONS, seconds: 1 });
    for (let r = 0; r < opt.rounds; r++) {
      log(`round ${r + 1}/${opt.rounds}`);
      const round = {};
      for (const s of scenarios) {
        round[s.name] = await measure({ ...s, connections: CONNECTIONS, seconds: opt.seconds });
      }
      rounds.push(round);
    }
  } catch (err) {
    problems.push(`run aborted: ${err.stack ?? err.message}`);
    if (server) log(`server output (tail):\n${server.output().slice(-3000)}`);
  } finally {
    if (bare) await bare.stop();
    if (bareFastify) await bareFastify.stop();
    if (server) await stopServer(server);
    await dropTarget(target, env, opt.keep);
  }

  const FEW_CEILING = 'bare node:http (few bytes)';
  const ceilingOf = (name) =>
    name === 'getGroupInfo' || name.includes('page body')
      ? 'bare node:http (page body)'
      : 'bare node:http (list body)';
  // Per scenario, the median over the rounds; each round's ratio is to that round's ceiling.
  const names = rounds.length ? Object.keys(rounds[0]) : [];
  const results = names.map((name) => {
    const pick = (key) => median(rounds.map((r) => r[name][key]));
    return {
      name,
      connections: CONNECTIONS,
      requests: rounds.reduce((s, r) => s + r[name].requests, 0),
      errors: rounds.reduce((s, r) => s + r[name].errors, 0),
      req_per_s: round(pick('req_per_s'), 1),
      p50_ms: pick('p50_ms'),
      p99_ms: pick('p99_ms'),
      server_cpu_ms_per_req: round(pick('server_cpu_ms_per_req'), 3),
      ratio_to_bare: round(
        median(rounds.map((r) => r[name].req_per_s / r[ceilingOf(name)].req_per_s)),
        3,
      ),
      ratio_to_few_bytes: round(
        median(rounds.map((r) => r[name].req_per_s / r[FEW_CEILING].req_per_s)),
        3,
      ),
    };
  });
  for (const r of results) if (r.errors) problems.push(`${r.name}: ${r.errors} errors`);

  const machine = machineOf(loadBefore);

  console.log(
    `\nParley reads, ${target.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${machine.cpus} CPU(s) ` +
      `${machine.cpu_model}, Node ${machine.node}, load ${machine.load_avg_1m_before} → ` +
      `${machine.load_avg_1m_after} | ${CONNECTIONS} connections, ${opt.rounds} × ${opt.seconds} s, medians`,
  );
  printTable(
    [
      'scenario',
      'req/s',
      'of bare (same bytes)',
      'of bare (few bytes)',
      'p50 ms',
      'p99 ms',
      'cpu ms/req',
      'requests',
      'errors',
    ],
    results.map((r) => [
      r.name,
      r.req_per_s,
      `${round(r.ratio_to_bare * 100, 1)} %`,
      `${round(r.ratio_to_few_bytes * 100, 1)} %`,
      r.p50_ms,
      r.p99_ms,
      r.server_cpu_ms_per_req,
      r.requests,
      r.errors,
    ]),
  );
  console.log(
    `bodies: getGroupInfo ${payloadBytes.getGroupInfo} B, getGroupList ${payloadBytes.getGroupList} B, ` +
      `few bytes ${Buffer.byteLength(FEW_BYTES)} B`,
  );
  finishReport('reads', started, target.kind, problems, {
    machine,
    options: { connections: CONNECTIONS, rounds: opt.rounds, seconds: opt.seconds },
    workspace: seedInfo && { chats: seedInfo.chats, messages: seedInfo.messages },
    body_bytes: payloadBytes,
    results,
    rounds,
  });
}

runBench(main, 15);
