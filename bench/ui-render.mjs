#!/usr/bin/env node
// Rendering benchmark of the web console on a large workspace (see bench/README.md).
//
//   npm run build && node bench/ui-render.mjs [--keep] [--sign-in-only]
//
// Seeds the same workspace as api-latency.mjs (10,000 chats, one chat with 50,000 messages),
// starts the built server, drives the built console in Debian's Chromium and measures: the
// console's first paint of the chat list, scrolling the biggest chat list to its end and the
// 50,000-message chat 20 pages back (frame times, long tasks, rendered rows, JS heap),
// switching between chats, and (issue 25, "no long tasks") signing in through the real login
// form then 30 chat switches: every main-thread task over 50 ms, and the switches' p99.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { launchChromium } from './lib/browser.mjs';
import {
  ROOT,
  SEAT,
  createTarget,
  killLiveServer,
  log,
  requireBuild,
  round,
  rssOf,
  seed,
  sleep,
  startServer,
  stopServer,
} from './lib/workspace.mjs';

const keep = process.argv.includes('--keep');
const LIST_SCROLL_LIMIT_MS = 120_000;
const CHAT_PAGES_BACK = 20;
const SWITCHES = 20;
/** Issue 25: signing in and this many switches produce no task over 50 ms, p99 ≤ 150 ms. */
const SIGN_IN_SWITCHES = 30;
const LONG_TASK_MS = 50;
const SWITCH_P99_GOAL_MS = 150;
requireBuild('ui-render.mjs');

/** Collects frame times and long tasks in the page between start() and stop(). */
const FRAME_PROBE = () => {
  const state = { frames: [], longTasks: [], running: false, last: 0 };
  new PerformanceObserver((list) => {
    if (state.running) for (const e of list.getEntries()) state.longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: false });
  const tick = (t) => {
    if (!state.running) return;
    if (state.last) state.frames.push(t - state.last);
    state.last = t;
    requestAnimationFrame(tick);
  };
  window.__probe = {
    start() {
      state.frames = [];
      state.longTasks = [];
      state.last = 0;
      state.running = true;
      requestAnimationFrame(tick);
    },
    stop() {
      state.running = false;
      const mem = performance.memory;
      return {
        frames: state.frames,
        longTasks: state.longTasks,
        heapMb: mem ? mem.usedJSHeapSize / 1048576 : null,
      };
    },
  };
};

function frameStats(name, probe, extra = {}) {
  const frames = [...probe.frames].sort((a, b) => a - b);
  const pct = (p) => frames[Math.min(frames.length - 1, Math.ceil((p / 100) * frames.length) - 1)];
  return {
    name,
    frames: frames.length,
    frame_p50_ms: round(pct(50)),
    frame_p95_ms: round(pct(95)),
    frame_p99_ms: round(pct(99)),
    frame_max_ms: round(frames.at(-1)),
    // Frames over 50 ms are the ones an operator sees as a stutter.
    janky_frames: frames.filter((f) => f > 50).length,
    long_tasks: probe.longTasks.length,
    long_task_max_ms: round(Math.max(0, ...probe.longTasks)),
    heap_mb: round(probe.heapMb, 1),
    ...extra,
  };
}

async function api(base, token, call, body) {
  const res = await fetch(`${base}/v1/seat/chat/${call}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (json.code !== '000000') throw new Error(`${call}: ${json.code} ${json.msg}`);
  return json.data;
}

/** Every long task from the page's start (the observer is installed before any script). */
const LONG_TASK_LOG = () => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__longTasks.push({ start: Math.round(e.startTime), ms: Math.round(e.duration) });
    }
  }).observe({ type: 'longtask', buffered: true });
};

/** One chat switch, timed in the page: a click until the chat's messages show. */
const SWITCH_IN_PAGE = (n) =>
  new Promise((resolve) => {
    const row = document.querySelectorAll('[data-testid="user-item"]')[n];
    const t = performance.now();
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

/**
 * Issue 25: a fresh browser signs in through the login form (no token planted), waits for the
 * first chat row, then switches chats 30 times. Long tasks are those the page reports
 * (PerformanceObserver 'longtask'), split into those of the sign-in and those of the switches.
 */
async function signInAndSwitch(browser, base) {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
    baseURL: base,
  });
  try {
    await context.addInitScript(LONG_TASK_LOG);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByTestId('login-username').fill(SEAT.account);
    await page.getByTestId('login-password').fill(SEAT.password);
    // An operator types for seconds: what the login page does while idle is done before the
    // click, as it would be (and counted as the login page's, not the sign-in's).
    await page.waitForLoadState('networkidle').catch(() => {});
    await sleep(1000);
    const clickAt = await page.evaluate(() => performance.now());
    const t0 = performance.now();
    await page.getByTestId('login-submit').click();
    await page.getByTestId('user-item').first().waitFor({ timeout: 60_000 });
    const signInMs = performance.now() - t0;
    // What the console does right after its first rows (counts, the next page, pushes).
    await page.waitForLoadState('networkidle').catch(() => {});
    await sleep(1000);
    // Before the click: the login page's own load and its idle work; after: signing in.
    const pageTasks = await page.evaluate(() => window.__longTasks.splice(0));
    const loginPageTasks = pageTasks.filter((x) => x.start < clickAt);
    const signInTasks = pageTasks.filter((x) => x.start >= clickAt);
    const switchMs = [];
    for (let i = 0; i < SIGN_IN_SWITCHES; i++) {
      switchMs.push(await page.evaluate(SWITCH_IN_PAGE, 1 + (i % 10)));
    }
    await sleep(500);
    const switchTasks = await page.evaluate(() => window.__longTasks.splice(0));
    const inOrder = switchMs.map((x) => Math.round(x)).join(' ');
    switchMs.sort((a, b) => a - b);
    const pct = (p) =>
      switchMs[Math.min(switchMs.length - 1, Math.ceil((p / 100) * switchMs.length) - 1)];
    const over = (tasks) => tasks.filter((x) => x.ms > LONG_TASK_MS);
    return {
      name: `sign in through the form, then ${SIGN_IN_SWITCHES} switches (issue 25)`,
      login_page_long_tasks: over(loginPageTasks).length,
      login_page_long_task_max_ms: Math.max(0, ...loginPageTasks.map((x) => x.ms)),
      sign_in_ms: round(signInMs),
      sign_in_long_tasks: over(signInTasks).length,
      sign_in_long_task_max_ms: Math.max(0, ...signInTasks.map((x) => x.ms)),
      switch_p50_ms: round(pct(50)),
      switch_p99_ms: round(pct(99)),
      switch_max_ms: round(switchMs.at(-1)),
      switch_long_tasks: over(switchTasks).length,
      switch_long_task_max_ms: Math.max(0, ...switchTasks.map((x) => x.ms)),
      long_tasks_ms: [...loginPageTasks, ...signInTasks, ...switchTasks].map((x) => x.ms).join(' '),
      // In the order they were made: the first opens the chat's code if it is not there yet.
      switches_ms: inOrder,
      // The login page's load counts too: the operator sees it on the way to the console.
      goal_no_task_over_50_ms:
        over(loginPageTasks).length + over(signInTasks).length + over(switchTasks).length === 0,
      goal_switch_p99_le_150_ms: pct(99) <= SWITCH_P99_GOAL_MS,
    };
  } finally {
    await context.close();
  }
}

async function main() {
  const { target, env } = await createTarget(null);
  const results = [];
  let server = null;
  let browser = null;
  try {
    const seedInfo = await seed(target, env);
    log(`seeded ${seedInfo.chats} chats, ${seedInfo.messages} messages`);
    server = await startServer(env);
    const login = await api(server.base, null, 'login', {
      account: SEAT.account,
      password: SEAT.password,
    });
    // The 50,000-message chat pinned, so it heads its list and the benchmark can open it.
    await api(server.base, login.token, 'sessionDoTop', {
      session_id: seedInfo.big_chat.session_id,
      is_top: true,
    });

    browser = await launchChromium(['--enable-precise-memory-info']);
    // First, on a cold browser: the issue 25 sign-in and switches (before the other steps warm
    // the server's caches further).
    results.push(await signInAndSwitch(browser, server.base));
    if (process.argv.includes('--sign-in-only')) {
      print(results);
      return;
    }
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      locale: 'en-US',
      baseURL: server.base,
    });
    await context.addInitScript(FRAME_PROBE);
    await context.addInitScript((info) => {
      if (!localStorage.getItem('userInfo')) localStorage.setItem('userInfo', JSON.stringify(info));
    }, login);
    const page = await context.newPage();

    // 1. The console's first paint: navigation to the first chat row of the biggest group.
    const t0 = performance.now();
    await page.goto('/home/chat');
    const ungrouped = page.locator('[data-testid="group-item"][data-group-type="ungrouped"]');
    await ungrouped.click();
    await page.getByTestId('user-item').first().waitFor();
    results.push({ name: 'console open → first chat row', ms: round(performance.now() - t0) });

    // 2. Scroll the biggest tab (earlier, 3,747 chats) to its end: 75 pages loaded on the way.
    await page.getByTestId('time-tab-2').click();
    await page.getByTestId('user-item').first().waitFor();
    const { total } = await api(server.base, login.token, 'getGroupInfo', {
      group_id: seedInfo.group_ids.ungrouped,
      user_time_type: 2,
      page_size: 1,
    });
    let pagesLoaded = 0;
    page.on('request', (req) => {
      if (req.url().endsWith('/getGroupInfo')) pagesLoaded++;
    });
    const list = page.getByTestId('user-list');
    await list.hover();
    await page.evaluate(() => window.__probe.start());
    const tList = performance.now();
    let lastCount = -1;
    let stuck = 0;
    while (performance.now() - tList < LIST_SCROLL_LIMIT_MS) {
      await page.mouse.wheel(0, 900);
      await sleep(16);
      const lastId = await page
        .getByTestId('user-item')
        .last()
        .getAttribute('data-session-id')
        .catch(() => null);
      const atEnd = await page.evaluate(() => {
        const el = document.querySelector('[data-testid="user-list"] [data-virtuoso-scroller]');
        return el ? el.scrollTop + el.clientHeight >= el.scrollHeight - 2 : false;
      });
      if (atEnd && lastId === String(lastCount)) stuck++;
      else stuck = 0;
      lastCount = Number(lastId);
      if (stuck > 40) break; // at the bottom and nothing more arrives for ~1 s
    }
    const listMs = performance.now() - tList;
    const listProbe = await page.evaluate(() => window.__probe.stop());
    const rowsRendered = await page.getByTestId('user-item').count();
    results.push(
      frameStats(`scroll the ${total}-chat list to its end`, listProbe, {
        ms: round(listMs),
        pages_loaded: pagesLoaded,
        rows_in_dom: rowsRendered,
      }),
    );

    // 3. The 50,000-message chat, 20 pages back.
    await page.getByTestId('time-tab-1').click();
    const big = page.locator(
      `[data-testid="user-item"][data-session-id="${seedInfo.big_chat.session_id}"]`,
    );
    const tOpen = performance.now();
    await big.click();
    await page.getByTestId('message-item').first().waitFor();
    results.push({ name: 'open the 50,000-message chat', ms: round(performance.now() - tOpen) });
    const messages = page.getByTestId('message-list');
    await messages.hover();
    await page.evaluate(() => window.__probe.start());
    const tBack = performance.now();
    const firstId = async () =>
      Number(await page.getByTestId('message-item').first().getAttribute('data-msg-id'));
    let oldestSeen = await firstId();
    let pages = 0;
    while (pages < CHAT_PAGES_BACK && performance.now() - tBack < LIST_SCROLL_LIMIT_MS) {
      await page.mouse.wheel(0, -1200);
      await sleep(16);
      const id = await firstId();
      if (id < oldestSeen - 40) {
        pages++;
        oldestSeen = id;
      }
    }
    const chatProbe = await page.evaluate(() => window.__probe.stop());
    results.push(
      frameStats(`scroll the big chat ${pages} pages back`, chatProbe, {
        ms: round(performance.now() - tBack),
        bubbles_in_dom: await page.getByTestId('message-item').count(),
      }),
    );

    // 4. Switching chats: click another chat until its messages show, timed in the page (a
    // round trip of the driver per step would add ~300 ms that the operator never waits).
    const switchMs = [];
    for (let i = 0; i < SWITCHES; i++) {
      switchMs.push(await page.evaluate(SWITCH_IN_PAGE, 1 + (i % 8)));
    }
    switchMs.sort((a, b) => a - b);
    results.push({
      name: `switch chats (${SWITCHES}×, first visits then cached)`,
      p50_ms: round(switchMs[Math.floor(switchMs.length / 2)]),
      max_ms: round(switchMs.at(-1)),
    });
    results.push({ name: 'server RSS after the run', ...rssOf(server.child.pid) });

    print(results);
    const file = path.join(
      ROOT,
      'bench/results',
      `ui-render-${new Date().toISOString().slice(0, 10)}.json`,
    );
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      JSON.stringify({ machine: machine(), workspace: seedInfo, results }, null, 2) + '\n',
    );
    log(`wrote ${path.relative(ROOT, file)}`);
  } finally {
    await browser?.close();
    if (server) await stopServer(server);
    if (!keep && target.kind === 'sqlite') rmSync(target.dataDir, { recursive: true, force: true });
  }
}

function machine() {
  return {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    node: process.version,
    load_avg: os.loadavg()[0],
  };
}

function print(results) {
  const m = machine();
  console.log(
    `Parley console rendering | ${m.cpus} CPU(s) ${m.cpu}, Node ${m.node}, load avg ${round(m.load_avg)}`,
  );
  for (const r of results) {
    const { name, ...rest } = r;
    console.log(
      `- ${name}: ${Object.entries(rest)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  }
}

const guard = setTimeout(() => {
  console.error('ERROR: the benchmark exceeded 10 minutes; aborting');
  killLiveServer();
  process.exit(1);
}, 10 * 60_000);
guard.unref();

main().catch((err) => {
  console.error(err);
  killLiveServer();
  process.exit(1);
});
