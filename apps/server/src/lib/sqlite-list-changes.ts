import type SQLite from 'better-sqlite3';
import type { KnownVersions } from './known-versions.js';

/** What each temporary trigger hands over: the seat ids whose lists the row's change moves. */
const TRIGGERS = [
  ['insert', 'new.seat_id'],
  ['delete', 'old.seat_id'],
  ['update', 'old.seat_id, new.seat_id'],
] as const;

/**
 * SQLite's counterpart of the PostgreSQL notices (lib/list-version-feed.ts), so a cached list
 * is answered with no query here too. A change of a seat's chats or groups made through this
 * connection tells `versions` at once, through temporary triggers (they exist on this
 * connection only: the CLI and any other program need no function of ours). A commit by
 * another connection (the CLI, a second process, sqlite3 by hand) moves the file's
 * `data_version`, read before each trusted version: every version is then forgotten.
 */
export function watchListChanges(sqlite: SQLite.Database, versions: KnownVersions): void {
  sqlite.function('parley_list_changed', { varargs: true }, (...seats: unknown[]) => {
    for (const seat of seats) if (typeof seat === 'number') versions.changed(seat);
    return null;
  });
  // The tables with a version trigger (migrations 025, 048), and seat_list_versions too: the
  // other tables whose changes move a version (chat_labels, labels: migration 047) raise it
  // through their own triggers, seen here as they write it.
  for (const table of ['sessions', 'seat_groups', 'team_members', 'seat_list_versions']) {
    for (const [op, seats] of TRIGGERS) {
      sqlite.exec(`create temp trigger if not exists parley_${table}_${op}_seen
        after ${op} on main.${table}
        begin select parley_list_changed(${seats}); end`);
    }
  }
  const read = sqlite.prepare('pragma data_version').pluck();
  const dataVersion = () => read.get() as number;
  let seen = dataVersion();
  versions.watch(() => {
    const now = dataVersion();
    if (now === seen) return false;
    seen = now;
    return true;
  });
}
