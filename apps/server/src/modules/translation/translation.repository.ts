import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { TranslationMemoryTable } from '../../db/schema.js';

export type MemoryKey = Pick<TranslationMemoryTable, 'engine' | 'source_lang' | 'target_lang'>;

export const translationRepository = {
  /** One engine's remembered translations of these texts (by hash), through the primary key. */
  lookup(db: Db, key: MemoryKey, hashes: string[]) {
    if (hashes.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('translation_memory')
      .select(['text_hash', 'translated', 'detected_lang'])
      .where('engine', '=', key.engine)
      .where('source_lang', '=', key.source_lang)
      .where('target_lang', '=', key.target_lang)
      .where('text_hash', 'in', hashes)
      .execute();
  },

  /** Another seat may have stored the same text meanwhile: the first one stays. */
  async store(db: Db, rows: TranslationMemoryTable[]) {
    if (rows.length === 0) return;
    await db
      .insertInto('translation_memory')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['engine', 'source_lang', 'target_lang', 'text_hash']).doNothing(),
      )
      .execute();
  },

  /** Several chats' customer languages in one statement, each scoped by its seat. */
  async setCustomerLanguages(
    db: Db,
    rows: { seatId: number; sessionId: number; language: string }[],
  ) {
    if (rows.length === 0) return;
    const cases = rows.map(
      (r) => sql`when id = ${r.sessionId} and seat_id = ${r.seatId} then ${r.language}`,
    );
    await db
      .updateTable('sessions')
      .set({
        customer_language: sql<string>`case ${sql.join(cases, sql` `)} else customer_language end`,
      })
      .where(
        'id',
        'in',
        rows.map((r) => r.sessionId),
      )
      .execute();
  },

  /** Scoped by seat; null when the chat is not this seat's. */
  async setCustomerLanguage(db: Db, seatId: number, sessionId: number, language: string | null) {
    const row = await db
      .updateTable('sessions')
      .set({ customer_language: language })
      .where('seat_id', '=', seatId)
      .where('id', '=', sessionId)
      .returning(['id', 'customer_language'])
      .executeTakeFirst();
    return row ?? null;
  },

  /** Adds characters to an engine's hour (sent to it, or answered by the memory). */
  async addUsage(
    db: Db,
    row: { hour: number; engine: string; characters: number; memory_characters: number },
  ) {
    await db
      .insertInto('translation_usage')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['hour', 'engine']).doUpdateSet((eb) => ({
          characters: eb('translation_usage.characters', '+', row.characters),
          memory_characters: eb('translation_usage.memory_characters', '+', row.memory_characters),
        })),
      )
      .execute();
  },

  /** Adds characters to a seat's quarter hour of an engine (the owner's charts). */
  async addSlotUsage(
    db: Db,
    row: {
      slot: number;
      seat_id: number;
      engine: string;
      characters: number;
      memory_characters: number;
      glossary_hits: number;
    },
  ) {
    await db
      .insertInto('translation_slots')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['slot', 'seat_id', 'engine']).doUpdateSet((eb) => ({
          characters: eb('translation_slots.characters', '+', row.characters),
          memory_characters: eb('translation_slots.memory_characters', '+', row.memory_characters),
          glossary_hits: eb('translation_slots.glossary_hits', '+', row.glossary_hits),
        })),
      )
      .execute();
  },
};
