import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import { seatsRepository } from '../modules/seats/seats.repository.js';
import { loadDemo, type DemoResult } from './demo.js';

/** PARLEY_DEMO: `auto` seeds an empty embedded database, `on` any empty one, `off` never. */
export async function autoLoadDemo(config: Config, database: DatabaseHandle): Promise<DemoResult> {
  const wanted = config.demo === 'on' || (config.demo === 'auto' && database.embedded);
  if (!wanted || (await seatsRepository.count(database.db)) > 0) {
    return { loaded: false, sessions: 0, messages: 0 };
  }
  return loadDemo(database.db);
}
