#!/usr/bin/env node
// `npm test`: the whole suite in four phases, each one's time printed at the end.
//   build   npm run build (the protocol, then the server and the web console side by side)
//   checks  what needs only the build, side by side: the type checks left after the build (the
//           server with its tests, the e2e specs; the protocol's and the web console's are the
//           build's own `tsc` commands), ESLint, Prettier, the generated docs, the unit tests
//   server  the integration suite (SQLite, and PostgreSQL when PARLEY_TEST_DATABASE_URL is set)
//   e2e     the browser tests
import { spawnSync } from 'node:child_process';
import { runParallel } from './parallel.mjs';

const times = [];
const phase = async (name, run) => {
  const started = Date.now();
  const ok = await run();
  times.push(`${name} ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (!ok) {
    console.log(`\nnpm test: ${name} failed (${times.join(', ')})`);
    process.exit(1);
  }
};
const sh = (cmd) => () => spawnSync(cmd, { shell: true, stdio: 'inherit' }).status === 0;

await phase('build', sh('npm run build'));
await phase('checks', () =>
  // Longest first, so the last to start are the short ones.
  runParallel([
    'eslint .',
    'prettier --check .',
    'npm run typecheck -w @parley/server',
    'npm run test:unit',
    'npm run typecheck -w @parley/e2e',
    'npm run lint:docs',
  ]),
);
await phase('server', sh('npm run test:server'));
await phase('e2e', sh('npm run test:e2e'));
console.log(`\nnpm test passed: ${times.join(', ')}`);
