/**
 * Starts the real Apertium APY (Debian packages apertium-apy + apertium-eng-spa) on a free
 * loopback port for a test file, and stops it afterwards. APY binds every interface on its
 * own; the launcher below narrows Tornado's bind to 127.0.0.1 and then runs APY's own main().
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, listenOnLoopback } from './loopback.js';

export const APY_BIN = '/usr/bin/apertium-apy';
export const APY_MODES = '/usr/share/apertium/modes';
/** The interpreter of APY's own launcher (#!/usr/bin/python3), whatever python3 is on PATH. */
const APY_PYTHON = '/usr/bin/python3';
const INSTALL =
  'Install it (as root): apt-get update && apt-get install -y apertium-apy apertium-eng-spa ' +
  'apertium-es-pt ' +
  '(.ci/run does this when it is missing).';

const LAUNCHER = `
import sys, tornado.tcpserver
_bind = tornado.tcpserver.TCPServer.bind
def bind(self, port, address=None, *args, **kwargs):
    return _bind(self, port, '127.0.0.1', *args, **kwargs)
tornado.tcpserver.TCPServer.bind = bind
from apertium_apy.apy import main
sys.argv = ['apertium-apy'] + sys.argv[1:]
main()
`;

/** The translation config of a test app that translates with `apy` alone. */
export function apertiumTranslation(apy: { url: string }) {
  return {
    providers: [{ name: 'apertium' as const, url: apy.url }],
    timeoutMs: 10_000,
    retries: 1,
    retryDelayMs: 5,
  };
}

export interface Apertium {
  url: string;
  stop(): Promise<void>;
}

/** Fails loudly (never skips) when APY or the eng-spa pair is not installed. */
export async function startApertium(): Promise<Apertium> {
  if (!existsSync(APY_BIN))
    throw new Error(`Apertium APY is not installed (${APY_BIN}). ${INSTALL}`);
  if (!existsSync(`${APY_MODES}/spa-eng.mode`) || !existsSync(`${APY_MODES}/eng-spa.mode`)) {
    throw new Error(`The Apertium English-Spanish pair is not installed. ${INSTALL}`);
  }
  if (!existsSync(`${APY_MODES}/es-pt.mode`) || !existsSync(`${APY_MODES}/pt-es.mode`)) {
    throw new Error(`The Apertium Spanish-Portuguese pair is not installed. ${INSTALL}`);
  }
  const port = await freePort();
  const child: ChildProcess = spawn(APY_PYTHON, ['-c', LAUNCHER, '-p', String(port), APY_MODES], {
    env: { ...process.env, LC_ALL: 'C.UTF-8' },
    stdio: ['ignore', 'ignore', 'pipe'],
    // Its own process group, so stopping it also ends the pipelines it spawned.
    detached: true,
  });
  let log = '';
  child.stderr!.on('data', (d: Buffer) => {
    log = (log + d.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is gone already
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      signalGroup('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
    }
    // Whatever is left of the group (a pipeline that outlived APY) goes too.
    signalGroup('SIGKILL');
  };
  // Ready when it lists its pairs (usually well under a second).
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${url}/listPairs`);
      if (res.ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  await stop();
  throw new Error(`Apertium APY did not start on ${url}:\n${log}`);
}

/** A paragraph holding a lone full stop: how the adapter joins texts into one APY request. */
const JOINED = /\n{2,}\.\n{2,}/;

export interface ApyProxy {
  url: string;
  /** The `q` of every /translate request APY was sent through the proxy, in order. */
  translated: string[];
  /** The next joined request's answer loses one separator, as an engine that altered it. */
  breakNextJoined(): void;
  stop(): Promise<void>;
}

/**
 * A recording HTTP proxy in front of the real APY: forwards every request as it is and
 * answers APY's own answer, so a test can count the engine requests the server made.
 */
export async function recordingProxy(apy: Apertium): Promise<ApyProxy> {
  const translated: string[] = [];
  let breakJoined = false;
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      const q = new URLSearchParams(body).get('q');
      if (req.url === '/translate' && q !== null) translated.push(q);
      const answer = await fetch(`${apy.url}${req.url}`, {
        method: req.method,
        headers: { 'content-type': req.headers['content-type'] ?? 'text/plain' },
        ...(req.method === 'POST' ? { body } : {}),
      });
      let text = await answer.text();
      if (breakJoined && q !== null && JOINED.test(q) && answer.status === 200) {
        breakJoined = false;
        const json = JSON.parse(text) as { responseData: { translatedText: string } };
        json.responseData.translatedText = json.responseData.translatedText.replace(JOINED, ' ');
        text = JSON.stringify(json);
      }
      res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(text);
    })().catch(() => {
      res.writeHead(502).end();
    });
  });
  const url = await listenOnLoopback(server);
  return {
    url,
    translated,
    breakNextJoined: () => {
      breakJoined = true;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** APY's own translation of one text sent alone (straight to APY, not through a proxy). */
export async function translateAlone(apy: Apertium, text: string, langpair: string) {
  const res = await fetch(`${apy.url}/translate`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ langpair, q: text, format: 'txt', markUnknown: 'no' }).toString(),
  });
  const json = (await res.json()) as { responseData: { translatedText: string } };
  return json.responseData.translatedText;
}
