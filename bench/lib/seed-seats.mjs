// Runs many CLI commands in one process (bench/inbound.mjs's seats): the built CLI's runCli,
// each command as `parley <args>` would, without a node start per command.
//   node bench/lib/seed-seats.mjs '<JSON array of argv arrays>'
import { runCli } from '../../apps/server/dist/cli/run.js';

const lines = [];
const io = { out: (l) => lines.push(l), err: (l) => lines.push(l) };
for (const argv of JSON.parse(process.argv[2])) {
  const status = await runCli(argv, io);
  if (status !== 0) {
    console.error(`parley ${argv[0]} failed (${status}): ${lines.join('\n')}`);
    process.exit(1);
  }
}
