import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The same suite runs on SQLite always, and on PostgreSQL too when PARLEY_TEST_DATABASE_URL is set.
const pg = process.env.PARLEY_TEST_DATABASE_URL;

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Test files share their worker's process and loaded modules: each file builds its own app
    // on its own database, and no test mocks a module or leaves a global changed. A fresh
    // process per file cost 40 % of the suite's time (loading Fastify, Kysely and the app again
    // 145 times: 441 s against 265 s here).
    isolate: false,
    // Two files at a time even on two cores (Vitest's default there is one): a server test waits
    // on its database, sockets, timers and child processes for much of its time. With one
    // worker the files ran one after another (CI: the PostgreSQL project's 1,303 s of file
    // time took 1,310 s) and a core stayed idle. VITEST_MAX_WORKERS overrides it.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true as const,
        test: {
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          // Several instances need PostgreSQL and Redis; SQLite has no connection pool and writes one
          // transaction at a time (no deadlock to retry).
          exclude: [
            'test/instances.test.ts',
            'test/resume-exact-instances.test.ts',
            'test/team-live-instances.test.ts',
            'test/rolling-restart.test.ts',
            'test/rolling-upgrade.test.ts',
            'test/pg-pool.test.ts',
            'test/transaction-retry.test.ts',
            'test/list-version-notices.test.ts',
            'test/pg-outage.test.ts',
            'test/pg-schemas.test.ts',
            'test/redis-outage.test.ts',
          ],
          env: { PARLEY_TEST_DB: 'sqlite' },
        },
      },
      ...(pg
        ? [
            {
              extends: true as const,
              test: {
                name: 'pg',
                include: ['test/**/*.test.ts'],
                // The built server's first start seeds the embedded database only.
                exclude: [
                  'test/main.test.ts',
                  'test/backup.test.ts',
                  'test/graceful-shutdown.test.ts',
                  'test/container-start.test.ts',
                  'test/outbox-durability.test.ts',
                  'test/sqlite-processes.test.ts',
                  'test/sqlite-list-changes.test.ts',
                  // Builds and typechecks a copy of the tree with a channel added: no database.
                  'test/channel-added.test.ts',
                  'test/pg-pool.test.ts',
                ],
                env: { PARLEY_TEST_DB: 'pg' },
              },
            },
            {
              extends: true as const,
              test: {
                name: 'pg-fresh',
                // It counts the statements this process has prepared, and the registry of
                // prepared texts is the process's (src/db/prepared.ts: at most 400 named):
                // after other files in a shared worker it had none left, so it failed by the
                // order the files ran in. A process of its own.
                include: ['test/pg-pool.test.ts'],
                isolate: true,
                env: { PARLEY_TEST_DB: 'pg' },
              },
            },
          ]
        : []),
    ],
  },
});
