// Issue 23: a body nested thousands deep must be refused in well under 5 ms of CPU (it once
// blocked the event loop 1.1-1.9 s). Measures the server's own JSON body parser (built:
// apps/server/dist) on hostile and ordinary 20-30 KB bodies; the ceiling of the same run is
// plain JSON.parse of a flat 30 KB body. Usage: npm run build && node bench/json-depth.mjs
import { parseJsonBody } from '../apps/server/dist/lib/json-body.js';
import { parseBody } from '../apps/server/dist/lib/validate.js';
import { CALLS } from '@parley/protocol';

const login = CALLS['/v1/seat/chat/login'].request;
const inField = (depth) =>
  `{"account":"x","password":${'[{"k":'.repeat(depth / 2)}"${'p'.repeat(8000)}"${'}]'.repeat(depth / 2)}}`;
const flat = JSON.stringify({ account: 'x', password: 'p'.repeat(30_000) });
const bodies = {
  'refused: 5,000 deep in a field': inField(5000),
  'refused: 10,000-deep arrays': '['.repeat(10_000) + ']'.repeat(10_000),
  'refused: 10,000-deep objects': `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
  'passes the parser: 63-deep nests': `{"account":[${Array(235)
    .fill('['.repeat(62) + ']'.repeat(62))
    .join(',')}]}`,
  'ordinary: flat login': flat,
};

/** CPU ms per call of `fn`, after a warm-up. */
function cpuMs(fn, n = 2000) {
  for (let i = 0; i < 200; i++) fn();
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n / 1000;
}

const ceiling = cpuMs(() => JSON.parse(flat));
console.log(`ceiling: JSON.parse of a flat ${flat.length}-byte body: ${ceiling.toFixed(3)} ms CPU`);
let failed = false;
for (const [name, text] of Object.entries(bodies)) {
  const ms = cpuMs(() => {
    try {
      parseBody(login, parseJsonBody(text));
    } catch {
      // refused: what is measured
    }
  });
  const ok = ms < 5;
  if (!ok) failed = true;
  console.log(
    `${ok ? 'ok  ' : 'SLOW'} ${name} (${text.length} bytes): ${ms.toFixed(3)} ms CPU, ${(ms / ceiling).toFixed(2)}x the ceiling`,
  );
}
process.exit(failed ? 1 : 0);
