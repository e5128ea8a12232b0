/**
 * Starts the real Apertium APY (Debian packages apertium-apy + apertium-eng-spa) on a free
 * loopback port for a test file, and stops it afterwards. APY binds every interface on its
 * own; the launcher below narrows Tornado's bind to 127.0.0.1 and then runs APY's own main().
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './loopback.js';

export const APY_BIN = '/usr/bin/apertium-apy';
export const APY_MODES = '/usr/share/apertium/modes';
/** The interpreter of APY's own launcher (#!/usr/bin/python3), whatever python3 is on PATH. */
const APY_PYTHON = '/usr/bin/python3';
const INSTALL =
  'Install it (as root): apt-get update && apt-get install -y apertium-apy apertium-eng-spa ' +
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
export function apertiumTranslation(apy: Apertium) {
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
