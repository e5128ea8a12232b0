import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { RoundTripsTable, TranslationMemoryTable } from '../../db/schema.js';

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

  /** A reply's round trip, replaced when the same words are translated again. */
  async storeRoundTrip(db: Db, row: RoundTripsTable) {
    await db
      .insertInto('round_trips')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['seat_id', 'original_hash', 'sent_hash']).doUpdateSet({
          engine: row.engine,
          back_translation: row.back_translation,
          back_engine: row.back_engine,
          flags: row.flags,
          created_at: row.created_at,
        }),
      )
      .execute();
  },

  findRoundTrip(db: Db, seatId: number, originalHash: string, sentHash: string) {
    return db
      .selectFrom('round_trips')
      .select(['engine', 'back_translation', 'back_engine', 'flags'])
      .where('seat_id', '=', seatId)
      .where('original_hash', '=', originalHash)
      .where('sent_hash', '=', sentHash)
      .executeTakeFirst();
  },

  /** One of the seat's replies in one of its chats, unless retracted or hidden. */
  findSentReply(db: Db, seatId: number, sessionId: number, msgId: number) {
    return db
      .selectFrom('messages')
      .select(['id', 'content', 'original_content'])
      .where('id', '=', msgId)
      .where('session_id', '=', sessionId)
      .where('seat_id', '=', seatId)
      .where('direction', '=', 'out')
      .where('deleted_for_all', '=', 0)
      .where('deleted_for_me', '=', 0)
      .executeTakeFirst();
  },

  /** Counts a round trip (and whether it was flagged) in a seat's quarter hour. */
  async addRoundTripSlot(db: Db, row: { slot: number; seat_id: number; flagged: number }) {
    await db
      .insertInto('round_trip_slots')
      .values({ ...row, back_translations: 1 })
      .onConflict((oc) =>
        oc.columns(['slot', 'seat_id']).doUpdateSet((eb) => ({
          back_translations: eb('round_trip_slots.back_translations', '+', 1),
          flagged: eb('round_trip_slots.flagged', '+', row.flagged),
        })),
      )
      .execute();
  },
};
