import pg from 'pg';
import { CompiledQuery } from 'kysely';
import type { Db } from './database.js';

/**
 * A query text seen this many times is prepared: a one-off text (a list of ids of one length,
 * a multi-row insert) is not worth a statement kept on the connection.
 */
const PREPARE_AFTER = 3;
/** Named texts at most, so what each connection keeps is bounded. */
const MAX_NAMED = 400;
/** How long opening a connection may take (see PreparingClient). */
export const CONNECT_TIMEOUT_MS = 3_000;
/** Unnamed texts counted at most before the count starts again. */
const MAX_COUNTED = 5_000;

/** Statement names by SQL text: a text named here runs as a named prepared statement. */
const names = new Map<string, string>();
const sightings = new Map<string, number>();
let lastName = 0;

const newName = (text: string) => {
  const name = `parley_${++lastName}`;
  names.set(text, name);
  return name;
};

/**
 * The name of a parameterised query text, once it has been run often enough to be worth
 * keeping prepared; until then (or past MAX_NAMED texts) undefined: run unnamed.
 */
function nameOf(text: string): string | undefined {
  const name = names.get(text);
  if (name !== undefined || names.size >= MAX_NAMED) return name;
  const seen = (sightings.get(text) ?? 0) + 1;
  if (seen < PREPARE_AFTER) {
    if (sightings.size >= MAX_COUNTED) sightings.clear();
    sightings.set(text, seen);
    return undefined;
  }
  sightings.delete(text);
  return newName(text);
}

/**
 * A fixed PostgreSQL statement (parameters $1…$n, lists passed as arrays), prepared from its
 * first run: the hot batch statements of the send path, whose parse and planning took longer
 * than their execution.
 */
export function preparedStatement<R>(text: string) {
  if (!names.has(text)) newName(text);
  return {
    async run(db: Db, parameters: readonly unknown[]): Promise<R[]> {
      const { rows } = await db.executeQuery<R>(CompiledQuery.raw(text, [...parameters]));
      return rows;
    },
  };
}

/**
 * PostgreSQL refuses a prepared statement whose result columns changed since it was prepared
 * (`select *` after a newer instance's migration added a column, in a rolling restart).
 */
export function isStalePlan(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return (
    e?.code === '0A000' &&
    typeof e.message === 'string' &&
    e.message.includes('cached plan must not change result type')
  );
}

/**
 * The pool's client: Kysely hands every query over as (text, values); a text run often (see
 * nameOf) is sent with its name, which makes pg prepare it on this connection the first time
 * and only bind and execute it after. PostgreSQL then plans it once, generically, when that
 * plan costs no more than planning each run: a read's planning took longer than its execution.
 * (Each pooled client must keep its own server connection: pg's pool, or a proxy in session
 * mode, not one that pools transactions.)
 */
export class PreparingClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({
      // A database that does not answer (a failover, a dropped network) is given up on in
      // time for the caller to hear 500005 within 5 s, instead of waiting on the system's
      // TCP timeout; a peer gone silent on an idle connection is found by TCP keep-alive.
      ...config,
      connectionTimeoutMillis: config?.connectionTimeoutMillis ?? CONNECT_TIMEOUT_MS,
      keepAlive: config?.keepAlive ?? true,
      keepAliveInitialDelayMillis: config?.keepAliveInitialDelayMillis ?? 10_000,
    });
    // A connection that breaks while the pool has lent it out (PostgreSQL stopped, or the
    // backend terminated, between two queries) emits 'error' with no listener of the pool's:
    // unheard, that ended the process. Its next query fails instead (the caller answers
    // 500005), and the pool drops it when it is given back (no longer queryable).
    this.on('error', () => undefined);
  }
}

type Query = (...args: unknown[]) => Promise<pg.QueryResult>;
const plainQuery = pg.Client.prototype.query as unknown as Query;

PreparingClient.prototype.query = function (
  this: pg.Client,
  config: unknown,
  values?: unknown,
  callback?: unknown,
) {
  const name =
    typeof config === 'string' && Array.isArray(values) && values.length > 0 && !callback
      ? nameOf(config)
      : undefined;
  if (name === undefined) return plainQuery.call(this, config, values, callback);
  const text = config as string;
  return plainQuery.call(this, { name, text, values }).catch((err: unknown) => {
    if (!isStalePlan(err)) throw err;
    // Every connection prepares the text afresh under a new name (the old one is left
    // behind, one per migration at most). Alone, the query runs again now; in a transaction,
    // which the error ended, inTransaction runs the transaction again.
    if (names.get(text) === name) newName(text);
    if (this.getTransactionStatus() !== 'I') throw err;
    return plainQuery.call(this, { name: names.get(text), text, values });
  });
} as typeof pg.Client.prototype.query;
