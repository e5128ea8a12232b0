import type { CompiledQuery, LogEvent } from 'kysely';
import { buildApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { RecordingEventBus } from '../src/realtime/recording-event-bus.js';
import { createServices, type Services } from '../src/services.js';
import { createTestDatabaseConfig, testAppOf, type TestApp } from './helper.js';

/**
 * The statement tests' world: the real app on a fresh test database, and a second connection
 * to it that logs every statement, with its own services built on it as the app builds them
 * (events recorded in the log, as the app's are). `statementsOf` counts what a piece of work
 * asked of the database through the traced services.
 */
export interface TracedWorld {
  t: TestApp;
  traced: DatabaseHandle;
  services: Services;
  statementsOf<T>(work: () => Promise<T>): Promise<{ sql: string[]; result: T }>;
  close(): Promise<void>;
}

export async function tracedWorld(overrides: Partial<Config> = {}): Promise<TracedWorld> {
  const made = await createTestDatabaseConfig(overrides);
  const app = await buildApp(made.config);
  await app.ready();
  const t = testAppOf(app, made.config);
  let recording: CompiledQuery[] | null = null;
  const traced = await openDatabase(made.config, {
    log: (event: LogEvent) => {
      if (event.level === 'query') recording?.push(event.query);
    },
  });
  const services = await createServices(traced.db, made.config, undefined, new RecordingEventBus());
  return {
    t,
    traced,
    services,
    async statementsOf<T>(work: () => Promise<T>) {
      recording = [];
      try {
        const result = await work();
        return { sql: recording.map((q) => q.sql), result };
      } finally {
        recording = null;
      }
    },
    async close() {
      await traced.close();
      await t.app.close();
      await made.cleanup();
    },
  };
}
