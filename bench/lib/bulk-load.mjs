// Bulk seeding on either engine, for benchmarks that need many rows fast (see bench/README.md).
// `db` is what workspace.mjs `openSeedDb` opens.

/** The columns a seeded chat sets (the others keep their defaults). */
export const SESSION_COLUMNS = [
  'seat_id',
  'send_phone',
  'receiver_phone',
  'group_id',
  'is_top',
  'remark',
  'un_read_count',
  'add_time',
  'latest_time',
  'last_direction',
  'last_preview',
  'last_type',
  'blocked',
];
/** The columns a seeded text message sets. */
export const MESSAGE_COLUMNS = [
  'session_id',
  'seat_id',
  'direction',
  'type',
  'content',
  'status',
  'created_at',
  'deleted_for_me',
  'deleted_for_all',
];

/**
 * Inserts rows (arrays in `cols` order): on SQLite one prepared statement in one transaction,
 * on PostgreSQL multi-row INSERTs of up to 1,000 rows (and 60,000 parameters). With
 * `returning`, answers the new ids in row order ([{ id }]).
 */
export async function bulkInsert(db, table, cols, rows, returning) {
  const ids = [];
  if (rows.length === 0) return ids;
  if (db.kind === 'sqlite') {
    const stmt = db.raw.prepare(
      `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    );
    db.raw.transaction(() => {
      for (const r of rows) {
        const { lastInsertRowid } = stmt.run(...r);
        if (returning) ids.push({ id: Number(lastInsertRowid) });
      }
    })();
    return ids;
  }
  const perChunk = Math.max(1, Math.min(1000, Math.floor(60_000 / cols.length)));
  for (let i = 0; i < rows.length; i += perChunk) {
    const params = [];
    const tuples = rows.slice(i, i + perChunk).map((r) => {
      const base = params.length;
      params.push(...r);
      return `(${r.map((_, k) => `$${base + k + 1}`).join(', ')})`;
    });
    const q = `INSERT INTO ${table} (${cols.join(', ')}) VALUES ${tuples.join(', ')}${
      returning ? ' RETURNING id' : ''
    }`;
    const res = await db.raw.query(q, params);
    if (returning) ids.push(...res.rows.map((r) => ({ id: Number(r.id) })));
  }
  return ids;
}

/**
 * Runs `fill` with the message text index out of the way and builds it once afterwards: the
 * FTS5 insert trigger (SQLite) or the trigram GIN index (PostgreSQL) is dropped and recreated
 * from its own stored definition. Kept row by row, it would make seeding take minutes.
 */
export async function withTextIndexDeferred(db, target, fill) {
  if (db.kind === 'sqlite') {
    const sqlite = db.raw;
    const trigger = sqlite
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?")
      .get('messages_fts_insert');
    if (!trigger) throw new Error('messages_fts_insert is missing: is migration 006 built?');
    sqlite.exec('DROP TRIGGER messages_fts_insert');
    await fill();
    sqlite.exec("INSERT INTO messages_fts (messages_fts) VALUES ('rebuild')");
    sqlite.exec(trigger.sql);
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    return;
  }
  const idx = await db.get(
    "SELECT pg_get_indexdef(c.oid) AS def FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE c.relname = 'messages_content_trgm_idx' AND s.nspname = ?",
    [target.schema],
  );
  if (!idx) throw new Error('messages_content_trgm_idx is missing: is migration 006 built?');
  await db.raw.query('DROP INDEX messages_content_trgm_idx');
  await fill();
  await db.raw.query("SET maintenance_work_mem = '256MB'");
  await db.raw.query(idx.def);
  await db.raw.query('VACUUM ANALYZE');
}
