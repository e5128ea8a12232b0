import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { openDatabase, type DatabaseHandle } from '../db/database.js';

/** Opens the database (running migrations) and closes it with the app. */
export async function registerDb(app: FastifyInstance, config: Config): Promise<DatabaseHandle> {
  const handle = await openDatabase(config);
  app.addHook('onClose', async () => {
    await handle.close();
  });
  app.log.info({ dialect: handle.dialect }, 'database ready');
  return handle;
}
