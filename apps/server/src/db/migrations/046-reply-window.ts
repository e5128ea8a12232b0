import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { fireDeferredTriggers } from './fire-deferred.js';
import { CHANNEL_NAMES, CHANNELS } from '@parley/protocol';

/**
 * Issue 33 (channels by ability): a chat's reply window, generic (`sessions.reply_until`):
 * until when free text is accepted on a channel with a window (null: the chat's channel has
 * none; 0: the customer has not written since the window applies). Set by the receive rules
 * (modules/sessions/reply-window.ts); filled here from each windowed channel's customers' last
 * messages, so the seat call /v1/seat/wa/window it replaces is not needed to know it.
 */
export function replyWindowMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // Nullable without a default: on PostgreSQL a change of the catalogue only, however big.
      await db.schema.alterTable('sessions').addColumn('reply_until', 'bigint').execute();
      for (const channel of CHANNEL_NAMES) {
        const hours = (CHANNELS[channel].abilities as { replyWindowHours: number | null })
          .replyWindowHours;
        if (hours === null) continue;
        await sql`update sessions set reply_until = coalesce(
            (select max(m.created_at) from messages m
              where m.session_id = sessions.id and m.direction = 'in') + ${hours * 3_600_000},
            0)
          where send_phone in (select send_phone from phone_accounts where channel = ${channel})`.execute(
          db,
        );
      }
      await fireDeferredTriggers(db, dialect);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('sessions').dropColumn('reply_until').execute();
    },
  };
}
