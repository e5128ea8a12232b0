// `--import` of a worker thread started from the TypeScript sources (the tests run the server
// from src/ under Vitest, whose transform does not reach worker threads): its modules are
// compiled by hooks.mjs. The built server (dist/) never loads this.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
