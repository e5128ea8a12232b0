import type { Db } from '../../db/database.js';
import type { GlossaryEntriesTable } from '../../db/schema.js';

type NewEntry = Omit<GlossaryEntriesTable, 'id'>;

/** The glossary, its version row, and the engines chosen per language pair. */
export const glossaryRepository = {
  state(db: Db) {
    return db
      .selectFrom('glossary_state')
      .selectAll()
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
  },

  /** Raises the version (the row lock orders concurrent changes); the new version. */
  async bumpVersion(trx: Db): Promise<number> {
    const row = await trx
      .updateTable('glossary_state')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', 1)
      .returning('version')
      .executeTakeFirstOrThrow();
    return Number(row.version);
  },

  /**
   * What DeepL holds, set only if it is still what was read (`from`): false when another
   * instance set it meanwhile (PostgreSQL re-reads the row after the other's commit, SQLite's
   * writes take turns).
   */
  async swapDeeplState(
    db: Db,
    from: { id: string | null; state: string | null },
    to: { id: string | null; state: string },
  ): Promise<boolean> {
    let q = db
      .updateTable('glossary_state')
      .set({ deepl_glossary_id: to.id, deepl_state: to.state })
      .where('id', '=', 1);
    q =
      from.id === null
        ? q.where('deepl_glossary_id', 'is', null)
        : q.where('deepl_glossary_id', '=', from.id);
    q =
      from.state === null
        ? q.where('deepl_state', 'is', null)
        : q.where('deepl_state', '=', from.state);
    const res = await q.executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  /** Every entry (what translation matches against), oldest first. */
  all(db: Db) {
    return db
      .selectFrom('glossary_entries')
      .select(['kind', 'term', 'translation', 'source_lang', 'target_lang'])
      .orderBy('id')
      .execute();
  },

  /** A page after `afterId` (keyset on the primary key). */
  page(
    db: Db,
    kind: GlossaryEntriesTable['kind'] | undefined,
    afterId: number | null,
    limit: number,
  ) {
    let q = db.selectFrom('glossary_entries').selectAll();
    if (kind) q = q.where('kind', '=', kind);
    if (afterId !== null) q = q.where('id', '>', afterId);
    return q.orderBy('id').limit(limit).execute();
  },

  async count(db: Db, kind?: GlossaryEntriesTable['kind']): Promise<number> {
    let q = db.selectFrom('glossary_entries').select((eb) => eb.fn.countAll<number>().as('n'));
    if (kind) q = q.where('kind', '=', kind);
    return Number((await q.executeTakeFirstOrThrow()).n);
  },

  find(db: Db, id: number) {
    return db.selectFrom('glossary_entries').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** The entry, or null when one with its key is there already. */
  async insert(db: Db, row: NewEntry) {
    const inserted = await db
      .insertInto('glossary_entries')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['kind', 'term_key', 'source_lang', 'target_lang']).doNothing(),
      )
      .returningAll()
      .executeTakeFirst();
    return inserted ?? null;
  },

  /** Many at once, in chunks (bound parameters stay under SQLite's limit); how many were new. */
  async insertMany(db: Db, rows: NewEntry[]): Promise<number> {
    let added = 0;
    for (let i = 0; i < rows.length; i += 500) {
      const inserted = await db
        .insertInto('glossary_entries')
        .values(rows.slice(i, i + 500))
        .onConflict((oc) =>
          oc.columns(['kind', 'term_key', 'source_lang', 'target_lang']).doNothing(),
        )
        .returning('id')
        .execute();
      added += inserted.length;
    }
    return added;
  },

  async delete(db: Db, id: number) {
    const row = await db
      .deleteFrom('glossary_entries')
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  },

  routes(db: Db) {
    return db
      .selectFrom('engine_routes')
      .selectAll()
      .orderBy('source_lang')
      .orderBy('target_lang')
      .execute();
  },

  /** The engines of a pair (the route of an explicit source, or of `auto`). */
  route(db: Db, source: string, target: string) {
    return db
      .selectFrom('engine_routes')
      .selectAll()
      .where('source_lang', '=', source)
      .where('target_lang', '=', target)
      .executeTakeFirst();
  },

  findRoute(db: Db, id: number) {
    return db.selectFrom('engine_routes').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async upsertRoute(
    db: Db,
    row: { source_lang: string; target_lang: string; engines: string; updated_at: number },
  ) {
    return db
      .insertInto('engine_routes')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['source_lang', 'target_lang']).doUpdateSet({
          engines: row.engines,
          updated_at: row.updated_at,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async deleteRoute(db: Db, id: number) {
    const row = await db
      .deleteFrom('engine_routes')
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  },
};
