import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../src/app.js';
import { createTestApp, type TestApp } from './helper.js';

const CONSOLES = 1000;

// Opens `count` connections to the port, waits until every handshake is done, and prints how
// many of them the kernel holds in the listener's accept queue (/proc/net/tcp: for a listening
// socket, rx_queue is the number of connections waiting for accept()).
const CONNECT_STORM = `
import net from 'node:net';
import { readFileSync } from 'node:fs';
const [port, count] = process.argv.slice(-2).map(Number);
const local = '0100007F:' + port.toString(16).toUpperCase().padStart(4, '0');
const queued = () => {
  const row = readFileSync('/proc/net/tcp', 'utf8').split('\\n').map((l) => l.trim().split(/\\s+/))
    .find((f) => f[1] === local && f[3] === '0A');
  return parseInt(row[4].split(':')[1], 16);
};
const report = () => {
  process.stdout.write(String(queued()));
  for (const s of sockets) s.destroy();
  process.exit(0);
};
let connected = 0;
let last = Date.now();
const sockets = Array.from({ length: count }, () => {
  const s = net.connect({ port, host: '127.0.0.1' });
  s.on('error', () => {});
  s.on('connect', () => {
    last = Date.now();
    // The last handshakes' final ACKs may still be on their way through loopback.
    if (++connected === count) setTimeout(report, 200);
  });
  return s;
});
// A handshake the kernel dropped is retried after a second at the earliest: when none has
// completed for 2.5 s, the rest wait in vain.
setInterval(() => Date.now() - last > 2500 && report(), 100);
`;

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  port = Number(new URL(await listen(t.app, t.config)).port);
});
afterAll(() => t.close());

describe('the listening socket', () => {
  it('holds a thousand consoles reconnecting at once while the server is busy', () => {
    const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    expect(somaxconn, 'the kernel caps every backlog at net.core.somaxconn').toBeGreaterThan(
      CONSOLES,
    );
    // The server runs in this thread: while the child runs, nothing is accepted, as when the
    // event loop is busy with the first of a thousand reconnecting consoles. With Node's default
    // backlog (511) the kernel keeps 512 and drops the other handshakes; each of those clients
    // then waits out TCP's retransmission (1 s, 3 s, 7 s, ...).
    const queued = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', CONNECT_STORM, String(port), String(CONSOLES)],
      { encoding: 'utf8', timeout: 15_000 },
    );
    expect(Number(queued)).toBe(CONSOLES);
  });
});
