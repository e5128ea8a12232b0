// The real Apertium APY for the translation benches: Debian's apertium-apy on a free loopback
// port, with the installed pairs of /usr/share/apertium/modes.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort, sleep } from './workspace.mjs';

export const APY_MODES = '/usr/share/apertium/modes';

// APY binds every interface; this narrows Tornado's bind to loopback, then runs APY's main().
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

/**
 * Starts APY once `modes` (e.g. 'spa-eng') are installed; `packages` name the Debian packages
 * to install when they are not. Answers its URL and a stop that kills its process group.
 */
export async function startApy(modes, packages) {
  const missing = modes.filter((m) => !existsSync(`${APY_MODES}/${m}.mode`));
  if (!existsSync('/usr/bin/apertium-apy') || missing.length > 0) {
    throw new Error(
      `needs apertium-apy and ${packages} (apt-get install -y apertium-apy ${packages})`,
    );
  }
  const port = await freePort();
  const child = spawn('/usr/bin/python3', ['-c', LAUNCHER, '-p', String(port), APY_MODES], {
    env: { ...process.env, LC_ALL: 'C.UTF-8' },
    stdio: 'ignore',
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  };
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${url}/listPairs`)).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  stop();
  throw new Error('APY did not start');
}
