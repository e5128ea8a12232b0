import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabaseConfig } from './helper.js';
import { cliOk, startServer } from './server-process.js';

/**
 * A database with no administrator (one upgraded from before the admin console, or one whose
 * demo was never loaded): the built server says, as it starts, how to make one. On the
 * project's database (PostgreSQL: a schema of its own, named with PARLEY_PG_SCHEMA).
 */
let env: Record<string, string>;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  const made = await createTestDatabaseConfig();
  cleanup = made.cleanup;
  const { config } = made;
  env = {
    PARLEY_DATA_DIR: config.dataDir,
    PARLEY_DEMO: 'off',
    // Written as it happens (the pretty printer writes from a worker, maybe after the banner).
    LOG_FORMAT: 'json',
    ...(config.databaseUrl
      ? { DATABASE_URL: config.databaseUrl, PARLEY_PG_SCHEMA: config.pgSchema! }
      : {}),
  };
});
afterAll(() => cleanup?.());

const NO_ADMIN =
  /no administrator yet: create one for the admin console \(\/admin\) with npm run parley -- admin:create <account> --password '<password>'/g;

describe('a start with no administrator', () => {
  it('says once how to make one, and no more once there is one', async () => {
    const first = await startServer(env);
    try {
      expect(first.output().match(NO_ADMIN)).toHaveLength(1);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    await cliOk(env, 'admin:create', 'owner', '--password', 'correct-horse-1');
    const second = await startServer(env);
    try {
      expect(second.output()).toContain('Parley listening on');
      expect(second.output()).not.toMatch(NO_ADMIN);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 60_000);
});
