import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export interface OutboxBacklogRow {
  channel: string;
  status: 'pending' | 'failed';
  items: number;
  oldest: number | null;
}

export const metricsRepository = {
  /**
   * The outbox items waiting or given up, by their account's channel: one grouped query over
   * the unfinished rows (the due index's `status` prefix), read when Prometheus scrapes.
   */
  async outboxBacklog(db: Db): Promise<OutboxBacklogRow[]> {
    const rows = await db
      .selectFrom('outbox')
      .innerJoin('messages', 'messages.id', 'outbox.msg_id')
      .innerJoin('sessions', 'sessions.id', 'messages.session_id')
      .innerJoin('phone_accounts', 'phone_accounts.send_phone', 'sessions.send_phone')
      .select([
        'phone_accounts.channel as channel',
        'outbox.status as status',
        sql<number>`count(*)`.as('items'),
        sql<number | null>`min(outbox.created_at)`.as('oldest'),
      ])
      .where('outbox.status', 'in', ['pending', 'failed'])
      .groupBy(['phone_accounts.channel', 'outbox.status'])
      .execute();
    return rows.map((r) => ({
      channel: r.channel,
      status: r.status as OutboxBacklogRow['status'],
      items: Number(r.items),
      oldest: r.oldest === null ? null : Number(r.oldest),
    }));
  },
};
