import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { fireDeferredTriggers } from './fire-deferred.js';

/**
 * Customers have names and faces: the name the channel gives a customer (a Telegram profile's
 * first and last name, the platform webhook's `name`, the sandbox customer's) and the
 * channel's photo of them (a media of the chat's seat), kept on the chat row itself. A chat
 * row is what the cached lists read (list-cache-tables.test.ts), and a change of it already
 * moves the seat's list version (migration 025), so a new name is never served stale.
 * Filled from the Telegram profiles recorded before.
 */
export function customerNamesMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sessions').addColumn('customer_name', 'varchar(128)').execute();
      await db.schema.alterTable('sessions').addColumn('customer_avatar', 'varchar(64)').execute();
      await sql`update sessions set
          customer_name = (
            select coalesce(
              nullif(trim(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')), ''),
              case when p.username is null then null else '@' || p.username end)
            from telegram_profiles p
            where p.send_phone = sessions.send_phone
              and p.receiver_phone = sessions.receiver_phone),
          customer_avatar = (
            select m.media_id from telegram_profiles p
            join media m on m.media_id = p.photo_media_id and m.seat_id = sessions.seat_id
            where p.send_phone = sessions.send_phone
              and p.receiver_phone = sessions.receiver_phone)
        where exists (
          select 1 from telegram_profiles p
          where p.send_phone = sessions.send_phone
            and p.receiver_phone = sessions.receiver_phone)`.execute(db);
      await fireDeferredTriggers(db, dialect);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('sessions').dropColumn('customer_avatar').execute();
      await db.schema.alterTable('sessions').dropColumn('customer_name').execute();
    },
  };
}
