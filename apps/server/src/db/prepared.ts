import pg from 'pg';
import { CompiledQuery } from 'kysely';
import type { Db } from './database.js';

/** Statement names by SQL text: a text registered here runs as a named prepared statement. */
const names = new Map<string, string>();

/**
 * A fixed PostgreSQL statement (parameters $1…$n, lists passed as arrays) that each pooled
 * connection parses once and keeps: its runs skip the parse and, once PostgreSQL settles on a
 * generic plan, the planning too. For the hot batch statements of the send path, whose parse
 * and planning took longer than their execution. The texts are few and fixed, so what each
 * connection keeps is bounded.
 */
export function preparedStatement<R>(text: string) {
  if (!names.has(text)) names.set(text, `parley_${names.size + 1}`);
  return {
    async run(db: Db, parameters: readonly unknown[]): Promise<R[]> {
      const { rows } = await db.executeQuery<R>(CompiledQuery.raw(text, [...parameters]));
      return rows;
    },
  };
}

/**
 * The pool's client: Kysely hands every query over as (text, values); a registered text is
 * sent with its name, which makes pg prepare it on this connection the first time and bind it
 * after. (Each pooled client must keep its own server connection: pg's pool, or a proxy in
 * session mode, not one that pools transactions.)
 */
export class PreparingClient extends pg.Client {}

const plainQuery = pg.Client.prototype.query;
PreparingClient.prototype.query = function (
  this: pg.Client,
  config: unknown,
  values?: unknown,
  callback?: unknown,
) {
  const name = typeof config === 'string' ? names.get(config) : undefined;
  if (name === undefined || !Array.isArray(values)) {
    return (plainQuery as (...a: unknown[]) => unknown).call(this, config, values, callback);
  }
  return (plainQuery as (...a: unknown[]) => unknown).call(
    this,
    { name, text: config, values },
    callback,
  );
} as typeof plainQuery;
