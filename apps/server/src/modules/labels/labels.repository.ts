import { sql } from 'kysely';
import type { Label } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { LabelRow } from '../../db/schema.js';

export type LabelWithChats = LabelRow & { chats: number | string };

/** `labels` and `chat_labels` (migration 047): queries only, the rules are LabelsService's. */
export const labelsRepository = {
  /** Every label, by name. */
  all(db: Db): Promise<LabelRow[]> {
    return db.selectFrom('labels').selectAll().orderBy('name_key').orderBy('id').execute();
  },

  /** Every label with the number of chats it is on (one grouped read of the label index). */
  allWithChats(db: Db): Promise<LabelWithChats[]> {
    return db
      .selectFrom('labels')
      .selectAll('labels')
      .select((eb) =>
        eb
          .selectFrom('chat_labels')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('chat_labels.label_id', '=', 'labels.id')
          .as('chats'),
      )
      .orderBy('name_key')
      .orderBy('id')
      .execute() as Promise<LabelWithChats[]>;
  },

  find(db: Db, id: number): Promise<LabelRow | undefined> {
    return db.selectFrom('labels').selectAll().where('id', '=', id).executeTakeFirst();
  },

  findByKey(db: Db, nameKey: string): Promise<LabelRow | undefined> {
    return db.selectFrom('labels').selectAll().where('name_key', '=', nameKey).executeTakeFirst();
  },

  count(db: Db): Promise<number> {
    return db
      .selectFrom('labels')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  },

  chatsOf(db: Db, id: number): Promise<number> {
    return db
      .selectFrom('chat_labels')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('label_id', '=', id)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  },

  insert(db: Db, row: Omit<LabelRow, 'id'>): Promise<LabelRow> {
    return db.insertInto('labels').values(row).returningAll().executeTakeFirstOrThrow();
  },

  update(
    db: Db,
    id: number,
    set: Partial<Pick<LabelRow, 'name' | 'name_key' | 'color' | 'updated_at'>>,
  ): Promise<LabelRow | undefined> {
    return db.updateTable('labels').set(set).where('id', '=', id).returningAll().executeTakeFirst();
  },

  async remove(db: Db, id: number): Promise<boolean> {
    const r = await db.deleteFrom('labels').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },

  /** How many of these ids are labels (the set's check: every one must be). */
  async existing(db: Db, ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const r = await db
      .selectFrom('labels')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', 'in', [...ids])
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },

  /** The chat's labels become exactly `ids` (what stays is not written again). */
  async setForChat(db: Db, sessionId: number, ids: readonly number[], now: number) {
    let del = db.deleteFrom('chat_labels').where('session_id', '=', sessionId);
    if (ids.length > 0) del = del.where('label_id', 'not in', [...ids]);
    const removed = await del.executeTakeFirst();
    let added = 0;
    if (ids.length > 0) {
      const rows = await db
        .insertInto('chat_labels')
        .values(ids.map((label_id) => ({ session_id: sessionId, label_id, created_at: now })))
        .onConflict((oc) => oc.columns(['session_id', 'label_id']).doNothing())
        .returning('label_id')
        .execute();
      added = rows.length;
    }
    return Number(removed.numDeletedRows) > 0 || added > 0;
  },

  /**
   * The labels of these chats (one statement for a page, never one per chat), by name. Read
   * by the cached list answers: both tables move the list version (migration 047).
   */
  async ofChats(db: Db, sessionIds: readonly number[]): Promise<Map<number, Label[]>> {
    const byChat = new Map<number, Label[]>();
    if (sessionIds.length === 0) return byChat;
    const rows = await db
      .selectFrom('chat_labels')
      .innerJoin('labels', 'labels.id', 'chat_labels.label_id')
      .select(['chat_labels.session_id', 'labels.id', 'labels.name', 'labels.color'])
      .where('chat_labels.session_id', 'in', [...sessionIds])
      .orderBy('chat_labels.session_id')
      .orderBy('labels.name_key')
      .orderBy('labels.id')
      .execute();
    for (const r of rows) {
      const list = byChat.get(r.session_id) ?? [];
      list.push({ label_id: r.id, name: r.name, color: r.color });
      byChat.set(r.session_id, list);
    }
    return byChat;
  },

  /**
   * The chat, if the seat may see it (the isolation rule of teams: docs/decisions/
   * 2026-11-29-team-accounts.md): the seat holds it, or it waits in the queue of a team account
   * the seat is a member of. Its holder's seat id; undefined for any other chat.
   */
  async visibleChat(
    db: Db,
    seatId: number,
    sessionId: number,
  ): Promise<{ id: number; seat_id: number } | undefined> {
    return db
      .selectFrom('sessions')
      .select(['sessions.id', 'sessions.seat_id'])
      .where('sessions.id', '=', sessionId)
      .where((eb) =>
        eb.or([
          eb('sessions.seat_id', '=', seatId),
          eb.exists(
            eb
              .selectFrom('team_accounts')
              .innerJoin('team_members', 'team_members.account_id', 'team_accounts.account_id')
              .select(sql<number>`1`.as('one'))
              .whereRef('team_accounts.queue_seat_id', '=', 'sessions.seat_id')
              .where('team_members.seat_id', '=', seatId),
          ),
        ]),
      )
      .executeTakeFirst();
  },

  /** Every seat's id (a label's change is told to every console). */
  async seatIds(db: Db): Promise<number[]> {
    const rows = await db.selectFrom('seats').select('id').orderBy('id').execute();
    return rows.map((r) => r.id);
  },
};
