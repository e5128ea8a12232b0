import {
  Migrator,
  sql,
  type DatabaseIntrospector,
  type Migration,
  type MigrationProvider,
  type TableMetadata,
} from 'kysely';
import type { Db, DialectName } from './database.js';
import { initialMigration } from './migrations/001-initial.js';
import { quickRepliesMigration } from './migrations/002-quick-replies.js';
import { mediaMigration } from './migrations/003-media.js';
import { batchesMigration } from './migrations/005-batches.js';
import { listIndexesMigration } from './migrations/007-list-indexes.js';
import { translationMigration } from './migrations/008-translation.js';
import { telegramProfilesMigration } from './migrations/004-telegram-profiles.js';
import { searchMigration } from './migrations/006-search.js';
import { telegramChannelMigration } from './migrations/011-telegram-channel.js';
import { platformBridgeMigration } from './migrations/010-platform-bridge.js';
import { eventsMigration } from './migrations/009-events.js';
import { typedPreviewsMigration } from './migrations/012-typed-previews.js';
import { loginAttemptsMigration } from './migrations/013-login-attempts.js';
import { inboundMessagesMigration } from './migrations/014-inbound-messages.js';
import { sandboxCustomersMigration } from './migrations/015-sandbox-customers.js';
import { requestIdsMigration } from './migrations/016-request-ids.js';
import { sessionCountsMigration } from './migrations/017-session-counts.js';
import { adminMigration } from './migrations/018-admin.js';
import { listVersionsMigration } from './migrations/025-list-versions.js';
import { listVersionNoticesMigration } from './migrations/026-list-version-notices.js';
import { listVersionOnceMigration } from './migrations/027-list-version-once.js';
import { tokenRevocationsMigration } from './migrations/028-token-revocations.js';
import { dropSeatPhonesIndexMigration } from './migrations/029-drop-seat-phones-index.js';
import { searchEntriesDeferredMigration } from './migrations/030-search-entries-deferred.js';
import { translationSlotsMigration } from './migrations/031-translation-slots.js';
import { customerNamesMigration } from './migrations/032-customer-names.js';
import { messageRepliesMigration } from './migrations/033-message-replies.js';
import { chatTurnsMigration } from './migrations/034-chat-turns.js';
import { whatsappMigration } from './migrations/035-whatsapp.js';
import { whatsappTemplatesMigration } from './migrations/036-whatsapp-templates.js';
import { reactionsPacingMigration } from './migrations/037-reactions-pacing.js';
import { pushSubscriptionsMigration } from './migrations/039-push-subscriptions.js';
import { chatMutesMigration } from './migrations/040-chat-mutes.js';
import { teamAccountsMigration } from './migrations/041-team-accounts.js';
import { glossaryMigration } from './migrations/044-glossary.js';
import { roundTripsMigration } from './migrations/045-round-trips.js';
import { replyWindowMigration } from './migrations/046-reply-window.js';
import { labelsMigration } from './migrations/047-labels.js';

/** Static provider: migrations are bundled in the build, not discovered on disk. */
class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return {
      '001-initial': initialMigration(this.dialect),
      '002-quick-replies': quickRepliesMigration(this.dialect),
      '003-media': mediaMigration(this.dialect),
      '005-batches': batchesMigration(this.dialect),
      '007-list-indexes': listIndexesMigration(),
      '008-translation': translationMigration(),
      '004-telegram-profiles': telegramProfilesMigration(this.dialect),
      '006-search': searchMigration(this.dialect),
      '011-telegram-channel': telegramChannelMigration(this.dialect),
      '010-platform-bridge': platformBridgeMigration(this.dialect),
      '009-events': eventsMigration(),
      '012-typed-previews': typedPreviewsMigration(),
      '013-login-attempts': loginAttemptsMigration(),
      '014-inbound-messages': inboundMessagesMigration(),
      '015-sandbox-customers': sandboxCustomersMigration(),
      '016-request-ids': requestIdsMigration(),
      '017-session-counts': sessionCountsMigration(this.dialect),
      '018-admin': adminMigration(this.dialect),
      '025-list-versions': listVersionsMigration(this.dialect),
      '026-list-version-notices': listVersionNoticesMigration(this.dialect),
      '027-list-version-once': listVersionOnceMigration(this.dialect),
      '028-token-revocations': tokenRevocationsMigration(this.dialect),
      '029-drop-seat-phones-index': dropSeatPhonesIndexMigration(),
      '030-search-entries-deferred': searchEntriesDeferredMigration(this.dialect),
      '031-translation-slots': translationSlotsMigration(),
      '032-customer-names': customerNamesMigration(this.dialect),
      '033-message-replies': messageRepliesMigration(),
      '034-chat-turns': chatTurnsMigration(this.dialect),
      '035-whatsapp': whatsappMigration(),
      '036-whatsapp-templates': whatsappTemplatesMigration(),
      '037-reactions-pacing': reactionsPacingMigration(),
      '039-push-subscriptions': pushSubscriptionsMigration(),
      '040-chat-mutes': chatMutesMigration(),
      '041-team-accounts': teamAccountsMigration(this.dialect),
      '044-glossary': glossaryMigration(this.dialect),
      '045-round-trips': roundTripsMigration(),
      '046-reply-window': replyWindowMigration(this.dialect),
      '047-labels': labelsMigration(this.dialect),
    };
  }
}

/** The migrator of a database (tests step it back and forth over one migration). */
export function migratorOf(db: Db, dialect: DialectName, schema: string | null): Migrator {
  // With a schema, Kysely looks for its own tables there, not in any schema of the database.
  return new Migrator({
    db: dialect === 'pg' ? withOwnTablesOnly(db, schema) : db,
    provider: new StaticProvider(dialect),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

/**
 * The database as the migrator sees it on PostgreSQL: its question "do my tables exist?" reads
 * only this install's schema. Kysely's own introspection lists every column of every schema
 * and calls has_schema_privilege on each schema's name, so a schema dropped meanwhile (another
 * install's, PARLEY_PG_SCHEMA) failed this start with "schema ... does not exist", and the
 * cost grew with every other schema of the database.
 */
function withOwnTablesOnly(db: Db, schema: string | null): Db {
  const getTables = async (): Promise<TableMetadata[]> => {
    const { rows } = await sql<{ name: string; schema: string }>`
      select c.relname as name, n.nspname as schema
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${schema ?? sql`current_schema()`} and c.relkind in ('r', 'p', 'v')
    `.execute(db);
    return rows.map((r) => ({ ...r, isView: false, columns: [] }));
  };
  const introspection: DatabaseIntrospector = {
    getSchemas: () => db.introspection.getSchemas(),
    getTables,
    getMetadata: async () => ({ tables: await getTables() }),
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, prop, target);
      // Kysely's methods read private fields: they run on the instance itself.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export async function migrateToLatest(
  db: Db,
  dialect: DialectName,
  schema: string | null,
): Promise<void> {
  const { error } = await migratorOf(db, dialect, schema).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
