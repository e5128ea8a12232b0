import { ConfigError } from '../config.js';
import { runCli } from './run.js';

runCli(process.argv.slice(2)).then(
  (status) => process.exit(status),
  (err: unknown) => {
    console.error(err instanceof ConfigError ? `Configuration error: ${err.message}` : err);
    process.exit(1);
  },
);
