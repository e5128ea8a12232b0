#!/usr/bin/env node
// First-load benchmark of the web console (see bench/README.md).
//
//   npm run build && node bench/first-load.mjs [--runs 5] [--web-dir <dir>] [--keep]
//
// Starts the built server on the demo workspace and a bare static server over the same built
// files (the ceiling: precompressed files straight from memory, /v1 passed through to Parley),
// then loads /login and /home/chat cold in Debian's Chromium (a new context per load, cache
// disabled) on loopback and on a throttled link. Reports the JS and CSS bytes transferred
// (compressed) and uncompressed against the budgets (/login 170 KB, console 300 KB), the
// requests, and the time to a usable screen against the bare server's.
import { gzipSync } from 'node:zlib';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { launchChromium } from './lib/browser.mjs';
import {
  ROOT,
  freePort,
  log,
  requireBuild,
  round,
  sleep,
  startServer,
  stopServer,
} from './lib/workspace.mjs';

const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
};
if (argv.includes('--help') || argv.includes('-h')) {
  console.log('usage: node bench/first-load.mjs [--runs 5] [--web-dir <built web dir>] [--keep]');
  process.exit(0);
}
const RUNS = Math.max(1, Math.min(20, Number(arg('--runs', '5')) || 5));
const THROTTLED_RUNS = Math.max(1, Math.ceil(RUNS / 2));
const WEB_DIR = path.resolve(arg('--web-dir', path.join(ROOT, 'apps/web/dist')));
const KEEP = argv.includes('--keep');
const DEMO = { account: 'demo', password: 'parley-demo' };
const GLOBAL_TIMEOUT_MS = 10 * 60_000;
const USABLE_TIMEOUT_MS = 30_000;

/** Issue 11's budgets: JS + CSS transferred (compressed), KB = 1,000 bytes. */
const BUDGET_KB = { login: 170, console: 300 };
/** A remote operator's link: 4 Mbit/s down, 1 Mbit/s up, 100 ms round trip (CDP emulation). */
const SLOW_LINK = { latency: 100, downloadThroughput: 500_000, uploadThroughput: 125_000 };

requireBuild('first-load.mjs');
if (!existsSync(path.join(WEB_DIR, 'index.html'))) {
  console.error(`${WEB_DIR}/index.html is missing: run \`npm run build\` first.`);
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// The ceiling: a bare static server over the same files

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * node:http, every file read into memory first, the best precompressed variant the browser
 * accepts (br, then gzip), index.html for any other GET; /v1 (and its WebSocket) go to Parley.
 * Nothing else: no headers, no logging, no negotiation library.
 */
async function startBareServer(webDir, upstreamPort) {
  const cache = new Map();
  const read = (file) => {
    if (!cache.has(file)) cache.set(file, existsSync(file) ? readFileSync(file) : null);
    return cache.get(file);
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname.startsWith('/v1/')) {
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: upstreamPort,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
      return;
    }
    let file = path.join(webDir, path.normalize(url.pathname).replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(webDir) || !read(file) || url.pathname === '/') {
      file = path.join(webDir, 'index.html');
    }
    const accept = String(req.headers['accept-encoding'] ?? '');
    const type = MIME[path.extname(file)] ?? 'application/octet-stream';
    const headers = { 'content-type': type };
    let body = read(file);
    for (const [enc, ext] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ]) {
      const packed = accept.includes(enc) ? read(file + ext) : null;
      if (packed) {
        body = packed;
        headers['content-encoding'] = enc;
        break;
      }
    }
    headers['content-length'] = body.length;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  server.on('upgrade', (req, socket, head) => {
    const upstream = net.connect(upstreamPort, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${port}`, close: () => server.close() };
}

/**
 * The second ceiling: a page of a few bytes holding only what the probe waits for (the login
 * form's two fields; a group and a chat in their lists), from node:http, no script, no style.
 * What a cold navigation costs the browser whatever the app weighs.
 */
const FEW_BYTES_PAGES = {
  '/login':
    '<!doctype html><input data-testid="login-username"><button data-testid="login-submit">Sign in</button>',
  '/home/chat':
    '<!doctype html><div data-testid="group-list"><div data-testid="group-item">All</div></div>' +
    '<div data-testid="user-list"><div data-testid="user-item">A chat</div></div>',
};
async function startFewBytesServer() {
  const server = http.createServer((req, res) => {
    const body = FEW_BYTES_PAGES[new URL(req.url, 'http://x').pathname];
    if (!body) {
      res.writeHead(404, { 'content-length': 0 });
      res.end();
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${port}`, close: () => server.close() };
}

// ---------------------------------------------------------------------------------------------
// Parley, on the demo workspace

async function startParley(dataDir) {
  const env = {
    ...process.env,
    PARLEY_DEMO: 'on',
    PARLEY_DATA_DIR: dataDir,
    PARLEY_WEB_DIR: WEB_DIR,
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    NODE_ENV: 'production',
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const server = await startServer(env);
  return { ...server, port: Number(new URL(server.base).port) };
}

async function loginDemo(base) {
  const res = await fetch(`${base}/v1/seat/chat/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO),
  });
  const json = await res.json();
  if (json.code !== '000000') throw new Error(`demo login: ${json.code} ${json.msg}`);
  return json.data;
}

// ---------------------------------------------------------------------------------------------
// One cold load in the browser

/**
 * Runs in the page before any script: notes the time (ms since the navigation started) at
 * which the screen became usable, watched with a MutationObserver (no polling delay).
 */
const USABLE_PROBE = (kind) => {
  const usable =
    kind === 'login'
      ? () => {
          const button = document.querySelector('[data-testid="login-submit"]');
          return (
            !!button &&
            !button.disabled &&
            !!document.querySelector('[data-testid="login-username"]')
          );
        }
      : () =>
          !!document.querySelector('[data-testid="group-list"] [data-testid="group-item"]') &&
          !!document.querySelector(
            '[data-testid="user-list"] [data-testid="user-item"], [data-testid="user-list-empty"]',
          );
  // What has arrived by then: the scripts and stylesheets whose response has ended (Resource
  // Timing lists a resource once it has), with their bodies' size as sent.
  const arrived = () =>
    performance
      .getEntriesByType('resource')
      .filter((e) => /\.(js|css)$/.test(new URL(e.name).pathname))
      .map((e) => ({ path: new URL(e.name).pathname, sent: e.encodedBodySize }));
  window.__usableAt = null;
  window.__arrivedByUsable = null;
  const check = () => {
    if (window.__usableAt === null && usable()) {
      window.__usableAt = performance.now();
      window.__arrivedByUsable = arrived();
    }
  };
  new MutationObserver(check).observe(document, {
    childList: true,
    subtree: true,
    attributes: true,
  });
};

const PAGES = {
  login: { path: '/login' },
  console: { path: '/home/chat' },
};

async function coldLoad(browser, base, kind, userInfo, link) {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
    serviceWorkers: 'block',
  });
  try {
    if (kind === 'console') {
      await context.addInitScript((info) => {
        if (!localStorage.getItem('userInfo'))
          localStorage.setItem('userInfo', JSON.stringify(info));
      }, userInfo);
    }
    await context.addInitScript(USABLE_PROBE, kind);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (link) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...link });

    // Per request: what travelled (CDP's encodedDataLength: the body as sent, plus headers)
    // and what it decoded to.
    const requests = new Map();
    cdp.on('Network.responseReceived', (e) => {
      const encoding = Object.entries(e.response.headers).find(
        ([k]) => k.toLowerCase() === 'content-encoding',
      )?.[1];
      requests.set(e.requestId, {
        url: e.response.url,
        type: e.type,
        status: e.response.status,
        encoding: encoding ?? 'identity',
        headerBytes: e.response.encodedDataLength ?? 0,
        decoded: 0,
        transferred: null,
      });
    });
    cdp.on('Network.dataReceived', (e) => {
      const r = requests.get(e.requestId);
      if (r) r.decoded += e.dataLength;
    });
    cdp.on('Network.loadingFinished', (e) => {
      const r = requests.get(e.requestId);
      if (r) r.transferred = e.encodedDataLength;
    });

    await page.goto(base + PAGES[kind].path, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__usableAt !== null, null, {
      timeout: USABLE_TIMEOUT_MS,
      polling: 50,
    });
    const usableMs = await page.evaluate(() => window.__usableAt);
    const byUsable = await page.evaluate(() => window.__arrivedByUsable);
    // Whatever the page fetches right after (lazy chunks it asks for at once) counts too.
    await page.waitForLoadState('networkidle', { timeout: USABLE_TIMEOUT_MS }).catch(() => {});
    await sleep(300);
    const finalPath = new URL(page.url()).pathname;
    const rows = [...requests.values()].filter((r) => r.transferred !== null);
    return { usableMs, rows, finalPath, byUsable };
  } finally {
    await context.close();
  }
}

function summarizeBytes(rows) {
  const pick = (pred) => {
    const list = rows.filter(pred);
    return {
      requests: list.length,
      // The body as it travelled: the transfer less the response headers.
      transferred: list.reduce((s, r) => s + Math.max(0, r.transferred - r.headerBytes), 0),
      decoded: list.reduce((s, r) => s + r.decoded, 0),
    };
  };
  const js = pick((r) => r.type === 'Script');
  const css = pick((r) => r.type === 'Stylesheet');
  return {
    js,
    css,
    all_requests: rows.length,
    encodings: [
      ...new Set(
        rows.filter((r) => ['Script', 'Stylesheet'].includes(r.type)).map((r) => r.encoding),
      ),
    ],
    scripts: rows.filter((r) => r.type === 'Script').map((r) => new URL(r.url).pathname),
    stylesheets: rows.filter((r) => r.type === 'Stylesheet').map((r) => new URL(r.url).pathname),
  };
}

/** The same files' gzip size (the budgets are gzip): the build's .gz, else gzipped here. */
function gzipBytes(paths) {
  return paths.reduce((sum, p) => {
    const file = path.join(WEB_DIR, p);
    if (existsSync(`${file}.gz`)) return sum + readFileSync(`${file}.gz`).length;
    return sum + gzipSync(readFileSync(file), { level: 9 }).length;
  }, 0);
}

const median = (list) => {
  const s = [...list].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const kb = (bytes) => round(bytes / 1000, 1);

// ---------------------------------------------------------------------------------------------

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-first-load-'));
  let parley = null;
  let bare = null;
  let few = null;
  let browser = null;
  const guard = setTimeout(() => {
    console.error('ERROR: the benchmark ran over 10 minutes; stopping');
    void (parley ? stopServer(parley) : Promise.resolve()).finally(() => process.exit(1));
  }, GLOBAL_TIMEOUT_MS);
  guard.unref();
  try {
    log(`web dir ${path.relative(ROOT, WEB_DIR) || WEB_DIR}, data dir ${dataDir}`);
    parley = await startParley(dataDir);
    bare = await startBareServer(WEB_DIR, parley.port);
    few = await startFewBytesServer();
    const userInfo = await loginDemo(parley.base);
    browser = await launchChromium();

    // Warm the server and the browser once (not measured).
    await coldLoad(browser, parley.base, 'login', userInfo, null);

    const profiles = [
      { name: 'loopback', link: null, runs: RUNS },
      { name: '4 Mbit/s, 100 ms RTT', link: SLOW_LINK, runs: THROTTLED_RUNS },
    ];
    const results = [];
    for (const kind of ['login', 'console']) {
      for (const profile of profiles) {
        const times = { parley: [], bare: [], few: [] };
        let bytes = null;
        let bareBytes = null;
        /** Per run: the scripts and stylesheets arrived by the usable screen (the first row). */
        const byUsable = [];
        const servers = { parley: parley.base, bare: bare.base, few: few.base };
        for (let i = 0; i < profile.runs; i++) {
          // Rotate which server goes first, so drift in the machine's load hits all alike.
          const names = ['parley', 'bare', 'few'];
          const order = [...names.slice(i % 3), ...names.slice(0, i % 3)];
          for (const who of order) {
            const base = servers[who];
            const run = await coldLoad(browser, base, kind, userInfo, profile.link);
            if (run.finalPath !== PAGES[kind].path) {
              throw new Error(
                `${kind} on ${who} ended at ${run.finalPath}, not ${PAGES[kind].path}`,
              );
            }
            times[who].push(run.usableMs);
            if (who === 'parley') {
              bytes = summarizeBytes(run.rows);
              byUsable.push(run.byUsable);
            } else if (who === 'bare') bareBytes = summarizeBytes(run.rows);
          }
        }
        const usable = median(times.parley);
        const ceiling = median(times.bare);
        const fewBytes = median(times.few);
        const gzip = gzipBytes([...bytes.scripts, ...bytes.stylesheets]);
        // The run that had the most by then (a warm-up that raced the first row shows here).
        const most = byUsable.reduce((a, b) =>
          b.reduce((s, r) => s + r.sent, 0) > a.reduce((s, r) => s + r.sent, 0) ? b : a,
        );
        const usableGzip = gzipBytes(most.map((r) => r.path));
        results.push({
          page: PAGES[kind].path,
          kind,
          profile: profile.name,
          runs: profile.runs,
          js_transferred_kb: kb(bytes.js.transferred),
          css_transferred_kb: kb(bytes.css.transferred),
          js_css_transferred_kb: kb(bytes.js.transferred + bytes.css.transferred),
          js_css_gzip_kb: kb(gzip),
          by_usable_sent_kb: kb(most.reduce((sum, r) => sum + r.sent, 0)),
          by_usable_gzip_kb: kb(usableGzip),
          by_usable_files: most.map((r) => r.path),
          budget_kb: BUDGET_KB[kind],
          // Issue 37: the budget holds for what has arrived by the usable screen (the console's
          // first row), whatever the page fetches after it.
          budget_ratio: round(usableGzip / 1000 / BUDGET_KB[kind]),
          until_idle_budget_ratio: round(gzip / 1000 / BUDGET_KB[kind]),
          js_uncompressed_kb: kb(bytes.js.decoded),
          css_uncompressed_kb: kb(bytes.css.decoded),
          js_requests: bytes.js.requests,
          css_requests: bytes.css.requests,
          all_requests: bytes.all_requests,
          encodings: bytes.encodings,
          usable_ms_median: round(usable, 0),
          usable_ms: times.parley.map((t) => round(t, 0)),
          ceiling_ms_median: round(ceiling, 0),
          ceiling_ms: times.bare.map((t) => round(t, 0)),
          ceiling_js_css_transferred_kb: kb(bareBytes.js.transferred + bareBytes.css.transferred),
          usable_ratio: round(usable / ceiling),
          few_bytes_ms_median: round(fewBytes, 0),
          few_bytes_ms: times.few.map((t) => round(t, 0)),
          few_bytes_ratio: round(usable / fewBytes),
          scripts: bytes.scripts,
          stylesheets: bytes.stylesheets,
        });
        log(
          `${kind} / ${profile.name}: usable ${round(usable, 0)} ms (bare ${round(ceiling, 0)} ms, ` +
            `few bytes ${round(fewBytes, 0)} ms)`,
        );
      }
    }

    const load = os.loadavg().map((l) => round(l, 2));
    const header =
      `Parley first load | ${os.cpus().length} CPU(s) ${os.cpus()[0]?.model.trim() ?? ''}, ` +
      `Node ${process.version}, Chromium ${browser.version()}, load avg ${load.join(' ')}\n` +
      `KB = 1,000 bytes; "sent": bodies as transferred (brotli), "gzip": the same files gzipped ` +
      `(the budgets are gzip); "by usable": what had arrived when the screen became usable ` +
      `(the most of the runs; the budget's ratio is of its gzip), the other columns: until the ` +
      `network is idle; "usable": login form interactive / group list ` +
      `and chat list shown, median of the runs, ms from navigation start; ceiling = the same ` +
      `files from a bare static server; few-bytes = a page holding only what the probe waits ` +
      `for, from node:http`;
    const table = [
      '| page       | link                 | by usable: sent | gzip  | JS+CSS sent | gzip  | budget | ratio | JS sent | CSS sent | JS raw | CSS raw | req (js/css/all) | usable ms | ceiling ms | ratio | few-bytes ms | ratio |',
      '| ---------- | -------------------- | --------------- | ----- | ----------- | ----- | ------ | ----- | ------- | -------- | ------ | ------- | ---------------- | --------- | ---------- | ----- | ------------ | ----- |',
      ...results.map(
        (r) =>
          `| ${r.page.padEnd(10)} | ${r.profile.padEnd(20)} | ` +
          `${String(r.by_usable_sent_kb).padStart(15)} | ${String(r.by_usable_gzip_kb).padStart(5)} | ` +
          `${String(r.js_css_transferred_kb).padStart(11)} | ` +
          `${String(r.js_css_gzip_kb).padStart(5)} | ` +
          `${String(r.budget_kb).padStart(6)} | ${String(r.budget_ratio).padStart(5)} | ` +
          `${String(r.js_transferred_kb).padStart(7)} | ${String(r.css_transferred_kb).padStart(8)} | ` +
          `${String(r.js_uncompressed_kb).padStart(6)} | ${String(r.css_uncompressed_kb).padStart(7)} | ` +
          `${`${r.js_requests}/${r.css_requests}/${r.all_requests}`.padStart(16)} | ` +
          `${String(r.usable_ms_median).padStart(9)} | ${String(r.ceiling_ms_median).padStart(10)} | ` +
          `${String(r.usable_ratio).padStart(5)} | ${String(r.few_bytes_ms_median).padStart(12)} | ` +
          `${String(r.few_bytes_ratio).padStart(5)} |`,
      ),
    ].join('\n');
    console.log(`\n${header}\n${table}`);
    for (const r of results.filter((x) => x.profile === 'loopback')) {
      console.log(`${r.page}: encodings ${r.encodings.join(', ')}; scripts ${r.scripts.join(' ')}`);
    }
    const over = results.filter((r) => r.profile === 'loopback' && r.budget_ratio > 1);
    for (const r of over) {
      console.log(
        `WARNING: ${r.page} had ${r.by_usable_gzip_kb} KB of JS+CSS (gzip) by the usable screen, over its ${r.budget_kb} KB budget`,
      );
    }

    mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    const date = new Date().toISOString().slice(0, 10);
    const file = path.join(ROOT, 'bench/results', `first-load-${date}.json`);
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          machine: {
            cpus: os.cpus().length,
            model: os.cpus()[0]?.model,
            node: process.version,
            load,
          },
          chromium: browser.version(),
          web_dir: path.relative(ROOT, WEB_DIR) || WEB_DIR,
          budgets_kb: BUDGET_KB,
          slow_link: SLOW_LINK,
          results,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`\nwritten ${path.relative(ROOT, file)}`);
  } finally {
    await browser?.close().catch(() => {});
    bare?.close();
    few?.close();
    if (parley) await stopServer(parley);
    if (!KEEP) rmSync(dataDir, { recursive: true, force: true });
    clearTimeout(guard);
  }
}

main().catch((err) => {
  console.error(`\nERROR: ${err.stack ?? err}`);
  process.exitCode = 1;
});
