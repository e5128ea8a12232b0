#!/usr/bin/env node
// Runs shell commands side by side, as many at a time as the machine has cores
// (PARLEY_JOBS to change it): the type checks, linters and builds are single-threaded, so one
// after another they leave all but one core idle. Each command's output is printed whole when
// it ends, with its time; the exit status is 1 if any failed (all of them still run).
//
//   node scripts/parallel.mjs "npm run build -w @parley/server" "npm run build -w @parley/web"
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

/** Runs `commands` (longest first: list them so) with at most `lanes` at once. */
export async function runParallel(
  commands,
  lanes = Number(process.env.PARLEY_JOBS) || availableParallelism(),
) {
  const queue = [...commands];
  const failed = [];
  const lane = async () => {
    for (let cmd = queue.shift(); cmd !== undefined; cmd = queue.shift()) {
      const started = Date.now();
      const chunks = [];
      const status = await new Promise((resolve) => {
        const child = spawn(cmd, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout.on('data', (c) => chunks.push(c));
        child.stderr.on('data', (c) => chunks.push(c));
        child.on('close', (code, signal) => resolve(code ?? signal));
      });
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n== ${cmd} (${secs} s${status === 0 ? '' : `, failed: ${status}`})\n`);
      process.stdout.write(Buffer.concat(chunks));
      if (status !== 0) failed.push(cmd);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, commands.length)) }, lane));
  if (failed.length > 0) process.stdout.write(`\nfailed: ${failed.join(', ')}\n`);
  return failed.length === 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = (await runParallel(process.argv.slice(2))) ? 0 : 1;
}
