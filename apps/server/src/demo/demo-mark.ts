import type { Db } from '../db/database.js';
import { settingsRepository } from '../modules/settings/settings.repository.js';

const KEY = 'demo_workspace_loaded';

/** Written with the demo workspace (same transaction): this database is a demo's. */
export async function markDemoLoaded(db: Db, now: number): Promise<void> {
  await settingsRepository.insertIfAbsent(db, KEY, new Date(now).toISOString(), now);
}

/** Whether the demo workspace was ever loaded into this database (the sandbox is on with it). */
export async function demoWorkspaceLoaded(db: Db): Promise<boolean> {
  return (await settingsRepository.get(db, KEY)) !== undefined;
}
