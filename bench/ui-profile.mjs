#!/usr/bin/env node
// Where the console's long tasks go (issue 25, "no long tasks"; see bench/README.md).
//
//   npm run build && node bench/ui-profile.mjs [--switches 30]
//   PARLEY_WEB_DIR=/tmp/web-unminified node bench/ui-profile.mjs   # readable function names
//   --over 30: list every task over 30 ms (default 50); --top 30: 30 functions per task (8)
//
// Seeds ui-render.mjs's workspace, opens the login page, signs in through its form and switches
// chats as that bench does, under a Chromium performance trace (the timeline and V8's sampling profiler). For
// every main-thread task over 50 ms it prints what the task was made of: the timeline's own
// work (style, layout, paint, parsing, compiling) and the JS functions with the most self time
// inside it, plus the same totals over the login page, the sign-in and all switches.
// `--trace <file>` keeps the raw trace (open it in DevTools' Performance panel).
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { launchChromium } from './lib/browser.mjs';
import {
  SEAT,
  createTarget,
  dropTarget,
  log,
  requireBuild,
  seed,
  sleep,
  startServer,
  stopServer,
} from './lib/workspace.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const SWITCHES = Number(arg('--switches', 30));
const TRACE_FILE = arg('--trace', null);
const LONG_TASK_MS = Number(arg('--over', 50));
/** How many functions each long task lists (self and inclusive). */
const TOP = Number(arg('--top', 8));
requireBuild('ui-profile.mjs');

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'disabled-by-default-v8.cpu_profiler',
  'blink.user_timing',
].join(',');

/** The same switch as ui-render.mjs: a click until the chat's messages show. */
const SWITCH_IN_PAGE = (n) =>
  new Promise((resolve) => {
    const row = document.querySelectorAll('[data-testid="user-item"]')[n];
    const t = performance.now();
    performance.mark(`switch-${n}`);
    const shown = () =>
      row.getAttribute('data-active') === 'true' &&
      document.querySelector('[data-testid="message-item"]') !== null &&
      !document.querySelector('[data-testid="message-list"] .mantine-Loader-root');
    const obs = new MutationObserver(() => {
      if (!shown()) return;
      obs.disconnect();
      resolve(performance.now() - t);
    });
    obs.observe(document.body, { childList: true, subtree: true, attributes: true });
    row.click();
  });

/** The renderer main thread's tasks and the CPU profile's samples, from the trace's events. */
function readTrace(events) {
  const main = events.find(
    (e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.ph === 'M',
  );
  // The page's renderer: the CrRendererMain thread with the most RunTask time.
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  let best = main;
  let bestDur = -1;
  for (const m of mains) {
    const d = events
      .filter((e) => e.pid === m.pid && e.tid === m.tid && e.name === 'RunTask')
      .reduce((s, e) => s + (e.dur ?? 0), 0);
    if (d > bestDur) [best, bestDur] = [m, d];
  }
  const onMain = events.filter((e) => e.pid === best.pid && e.tid === best.tid);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.ph === 'X');
  const slices = onMain.filter((e) => e.ph === 'X' && e.name !== 'RunTask');
  // V8's samples: Profile (start time) + ProfileChunks (nodes, samples, time deltas).
  const nodes = new Map();
  const samples = [];
  const chunks = events.filter(
    (e) => (e.name === 'ProfileChunk' || e.name === 'Profile') && e.pid === best.pid,
  );
  const byId = new Map();
  for (const e of chunks) {
    if (e.name === 'Profile') byId.set(e.id, { t: e.args.data.startTime });
  }
  for (const e of chunks) {
    if (e.name !== 'ProfileChunk') continue;
    const state = byId.get(e.id);
    if (!state) continue;
    const cp = e.args.data.cpuProfile ?? {};
    for (const n of cp.nodes ?? []) nodes.set(`${e.id}:${n.id}`, { ...n, parent: n.parent });
    const deltas = e.args.data.timeDeltas ?? [];
    (cp.samples ?? []).forEach((id, i) => {
      state.t += deltas[i] ?? 0;
      samples.push({ t: state.t, node: `${e.id}:${id}`, profile: e.id });
    });
  }
  samples.sort((a, b) => a.t - b.t);
  return { tasks, slices, nodes, samples };
}

const TIMELINE = new Map([
  ['UpdateLayoutTree', 'style recalc'],
  ['Layout', 'layout'],
  ['PrePaint', 'pre-paint'],
  ['Paint', 'paint'],
  ['Layerize', 'layerize'],
  ['ParseHTML', 'parse HTML'],
  ['ParseAuthorStyleSheet', 'parse CSS'],
  ['v8.compile', 'compile'],
  ['v8.compileModule', 'compile'],
  ['CompileScript', 'compile'],
  ['EvaluateScript', 'evaluate script'],
  ['v8.evaluateModule', 'evaluate module'],
  ['MajorGC', 'GC'],
  ['MinorGC', 'GC'],
  ['V8.GC_SCAVENGER', 'GC'],
  ['HitTest', 'hit test'],
]);

/** What one window of the main thread was made of. */
function breakdown(trace, from, to, limit = 12, keep = () => true) {
  const timeline = new Map();
  for (const s of trace.slices) {
    const kind = TIMELINE.get(s.name);
    if (!kind || s.ts < from || s.ts >= to) continue;
    timeline.set(kind, (timeline.get(kind) ?? 0) + (s.dur ?? 0) / 1000);
  }
  const self = new Map();
  const inclusive = new Map();
  const inWin = trace.samples.filter((s) => s.t >= from && s.t < to);
  for (let i = 0; i < inWin.length; i++) {
    const dt = i + 1 < inWin.length ? Math.min(inWin[i + 1].t - inWin[i].t, 2000) : 100;
    const n = trace.nodes.get(inWin[i].node);
    if (!n) continue;
    const name = label(n);
    self.set(name, (self.get(name) ?? 0) + dt / 1000);
    const seen = new Set();
    for (let p = n; p; p = trace.nodes.get(`${inWin[i].profile}:${p.parent}`)) {
      const pl = label(p);
      if (seen.has(pl)) continue;
      seen.add(pl);
      inclusive.set(pl, (inclusive.get(pl) ?? 0) + dt / 1000);
    }
  }
  const top = (m) =>
    [...m.entries()]
      .filter(([k]) => !/^\((root|program|idle)\)/.test(k) && keep(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([k, ms]) => `${ms.toFixed(1)} ${k}`);
  // On-CPU time as the sampler saw it: a task much longer than this waited for a core (load).
  let sampledMs = 0;
  for (let i = 0; i + 1 < inWin.length; i++)
    sampledMs += Math.min(inWin[i + 1].t - inWin[i].t, 2000) / 1000;
  return {
    sampledMs,
    timeline: [...timeline.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([k, ms]) => `${k} ${ms.toFixed(1)}`)
      .join(', '),
    self: top(self),
    inclusive: top(inclusive),
  };
}

function label(n) {
  const f = n.callFrame ?? {};
  const file = (f.url ?? '').replace(/^.*\/assets\//, '').replace(/^https?:\/\/[^/]+\//, '');
  return `${f.functionName || '(anonymous)'} ${file}:${(f.lineNumber ?? 0) + 1}`;
}

function report(title, trace, from, to) {
  const tasks = trace.tasks.filter((t) => t.ts >= from && t.ts < to);
  const long = tasks.filter((t) => t.dur / 1000 > LONG_TASK_MS);
  console.log(`\n## ${title}: ${long.length} tasks over ${LONG_TASK_MS} ms`);
  const all = breakdown(trace, from, to, 25);
  console.log(`timeline (ms): ${all.timeline}`);
  console.log('self time (ms):');
  for (const l of all.self) console.log(`  ${l}`);
  console.log('inclusive (ms):');
  for (const l of all.inclusive) console.log(`  ${l}`);
  // The app's own components and hooks (React's and the scheduler's frames left out).
  const app = breakdown(trace, from, to, 40, (k) => !/framework-/.test(k));
  console.log("inclusive, outside React's own chunk (ms):");
  for (const l of app.inclusive) console.log(`  ${l}`);
  for (const t of long) {
    const b = breakdown(trace, t.ts, t.ts + t.dur, TOP);
    console.log(
      `\n### task at +${((t.ts - from) / 1000).toFixed(0)} ms: ${(t.dur / 1000).toFixed(1)} ms, ` +
        `${b.sampledMs.toFixed(1)} ms of it sampled on the CPU`,
    );
    console.log(`timeline (ms): ${b.timeline}`);
    console.log(`self: ${b.self.join(' | ')}`);
    console.log(`inclusive: ${b.inclusive.join(' | ')}`);
  }
}

async function main() {
  const { target, env } = await createTarget(null);
  if (process.env.PARLEY_WEB_DIR) env.PARLEY_WEB_DIR = process.env.PARLEY_WEB_DIR;
  let server = null;
  let browser = null;
  try {
    const seedInfo = await seed(target, env);
    log(`seeded ${seedInfo.chats} chats, ${seedInfo.messages} messages`);
    server = await startServer(env);
    const res = await fetch(`${server.base}/v1/seat/chat/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: SEAT.account, password: SEAT.password }),
    });
    const token = (await res.json()).data.token;
    await fetch(`${server.base}/v1/seat/chat/sessionDoTop`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: token },
      body: JSON.stringify({ session_id: seedInfo.big_chat.session_id, is_top: true }),
    });
    browser = await launchChromium();
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      locale: 'en-US',
      baseURL: server.base,
    });
    const page = await context.newPage();
    // Traced from the navigation: the login page's own load is part of the way in.
    await browser.startTracing(page, { categories: CATEGORIES.split(',') });
    await page.goto('/login');
    await page.getByTestId('login-username').fill(SEAT.account);
    await page.getByTestId('login-password').fill(SEAT.password);
    // As ui-render.mjs: the login page's idle work is done while the operator types.
    await page.waitForLoadState('networkidle').catch(() => {});
    await sleep(1000);
    await page.evaluate(() => performance.mark('sign-in'));
    const t0 = performance.now();
    await page.getByTestId('login-submit').click();
    await page.getByTestId('user-item').first().waitFor({ timeout: 60_000 });
    log(`signed in: ${Math.round(performance.now() - t0)} ms`);
    await page.waitForLoadState('networkidle').catch(() => {});
    await sleep(1000);
    await page.evaluate(() => performance.mark('switches'));
    const switchMs = [];
    for (let i = 0; i < SWITCHES; i++) {
      switchMs.push(Math.round(await page.evaluate(SWITCH_IN_PAGE, 1 + (i % 10))));
    }
    await sleep(500);
    await page.evaluate(() => performance.mark('end'));
    const buf = await browser.stopTracing();
    if (TRACE_FILE) writeFileSync(TRACE_FILE, buf);
    const events = JSON.parse(buf.toString()).traceEvents;
    const mark = (name) => events.find((e) => e.name === name && e.cat?.includes('user_timing'));
    const [a, b, c] = ['sign-in', 'switches', 'end'].map((n) => mark(n)?.ts);
    const trace = readTrace(events);
    log(`switches (ms, in order): ${switchMs.join(' ')}`);
    report('login page (load, then idle until the click)', trace, 0, a);
    report('sign-in', trace, a, b);
    report(`${SWITCHES} switches`, trace, b, c);
  } finally {
    await browser?.close().catch(() => {});
    if (server) await stopServer(server);
    await dropTarget(target, env, false).catch(() => {});
  }
}

main().catch((err) => {
  console.error(`ERROR: ${err.stack ?? err}`);
  process.exitCode = 1;
});
