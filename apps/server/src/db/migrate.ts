import { readdir } from 'node:fs/promises';
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
import { teamAssignmentsMigration } from './migrations/048-team-assignments.js';
import { teamRepliesMigration } from './migrations/049-team-replies.js';

/**
 * The migrations: the shared ones listed here, and each channel's own, found in its folder
 * (`channels/<name>/migrations/NNN-<what>.ts`, exporting `migration(dialect)`). A channel's
 * migration takes the next number as any other does: Kysely runs them all in their names' order,
 * so a new channel adds its tables without a line here (docs/ARCHITECTURE.md, "How to add a
 * channel"). The channels that came before this rule keep theirs in this list.
 */
class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const channels = await channelMigrations(this.dialect);
    const shared = this.shared();
    const twice = Object.keys(channels).filter((name) => name in shared);
    if (twice.length > 0) throw new Error(`migration names taken twice: ${twice.join(', ')}`);
    return { ...shared, ...channels };
  }

  private shared(): Record<string, Migration> {
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
      '048-team-assignments': teamAssignmentsMigration(this.dialect),
      '049-team-replies': teamRepliesMigration(),
    };
  }
}

/** The channels' folders, beside this one's parent (src/ under Vitest, dist/ built). */
const CHANNELS_DIR = new URL('../channels/', import.meta.url);
/** A migration's module: `NNN-<what>.ts` (.js once built), not its declarations or maps. */
const MIGRATION_FILE = /^([0-9]{3}-[a-z0-9-]+)\.(ts|js)$/;

/**
 * Each channel's migrations, by their names. Found on disk rather than imported: db/ imports no
 * channel (the lint's import rules), and a new channel's migration needs no line here.
 */
async function channelMigrations(dialect: DialectName): Promise<Record<string, Migration>> {
  const found: Record<string, Migration> = {};
  for (const channel of await readdir(CHANNELS_DIR, { withFileTypes: true })) {
    if (!channel.isDirectory()) continue;
    const dir = new URL(`${channel.name}/migrations/`, CHANNELS_DIR);
    const files = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return [];
      throw e;
    });
    for (const file of files.sort()) {
      const name = MIGRATION_FILE.exec(file)?.[1];
      if (!name) continue;
      const mod = (await import(new URL(file, dir).href)) as {
        migration?: (dialect: DialectName) => Migration;
      };
      if (typeof mod.migration !== 'function') {
        throw new Error(`channels/${channel.name}/migrations/${file} exports no migration()`);
      }
      if (name in found) throw new Error(`migration names taken twice: ${name}`);
      found[name] = mod.migration(dialect);
    }
  }
  return found;
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
