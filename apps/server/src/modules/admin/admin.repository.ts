import type { Db } from '../../db/database.js';
import type { AuditLogTable } from '../../db/schema.js';

/** Administrators, their tokens and the audit log. */
export const adminRepository = {
  findByAccount(db: Db, account: string) {
    return db.selectFrom('admins').selectAll().where('account', '=', account).executeTakeFirst();
  },
  findById(db: Db, id: number) {
    return db.selectFrom('admins').selectAll().where('id', '=', id).executeTakeFirst();
  },
  insert(db: Db, row: { account: string; password_hash: string; now: number }) {
    return db
      .insertInto('admins')
      .values({ account: row.account, password_hash: row.password_hash, created_at: row.now })
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async setPassword(db: Db, id: number, passwordHash: string) {
    await db
      .updateTable('admins')
      .set({ password_hash: passwordHash })
      .where('id', '=', id)
      .execute();
  },
  list(db: Db) {
    return db.selectFrom('admins').selectAll().orderBy('account').execute();
  },
  count(db: Db) {
    return db
      .selectFrom('admins')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  },

  async insertToken(
    db: Db,
    row: { token_hash: string; admin_id: number; created_at: number; expires_at: number },
  ) {
    await db.insertInto('admin_tokens').values(row).execute();
  },
  findToken(db: Db, tokenHash: string) {
    return db
      .selectFrom('admin_tokens')
      .innerJoin('admins', 'admins.id', 'admin_tokens.admin_id')
      .select([
        'admin_tokens.admin_id',
        'admin_tokens.expires_at',
        'admin_tokens.revoked_at',
        'admins.account',
        'admins.created_at',
      ])
      .where('admin_tokens.token_hash', '=', tokenHash)
      .executeTakeFirst();
  },
  findValidHashes(db: Db, tokenHashes: string[], now: number) {
    return db
      .selectFrom('admin_tokens')
      .select('token_hash')
      .where('token_hash', 'in', tokenHashes)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .execute();
  },
  async revokeAdminTokens(db: Db, adminId: number, now: number) {
    const result = await db
      .updateTable('admin_tokens')
      .set({ revoked_at: now })
      .where('admin_id', '=', adminId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },
  async revokeToken(db: Db, tokenHash: string, now: number) {
    const result = await db
      .updateTable('admin_tokens')
      .set({ revoked_at: now })
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },
};

export type NewAudit = Omit<AuditLogTable, 'id'>;

export interface AuditFilter {
  actor?: string;
  action?: string;
  target_type?: string;
  target_id?: number;
  since?: number;
  until?: number;
}

export const auditRepository = {
  async insert(db: Db, row: NewAudit) {
    await db.insertInto('audit_log').values(row).execute();
  },
  /** Newest first, after the cursor's id. */
  page(db: Db, filter: AuditFilter, beforeId: number | null, limit: number) {
    let q = db.selectFrom('audit_log').selectAll();
    q = applyAuditFilter(q, filter);
    if (beforeId !== null) q = q.where('id', '<', beforeId);
    return q.orderBy('id', 'desc').limit(limit).execute();
  },
  count(db: Db, filter: AuditFilter) {
    const q = applyAuditFilter(
      db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')),
      filter,
    );
    return q.executeTakeFirstOrThrow().then((r) => Number(r.n));
  },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function applyAuditFilter<Q extends { where: (...args: any[]) => Q }>(q: Q, f: AuditFilter): Q {
  if (f.actor !== undefined) q = q.where('actor', '=', f.actor);
  if (f.action !== undefined) q = q.where('action', '=', f.action);
  if (f.target_type !== undefined) q = q.where('target_type', '=', f.target_type);
  if (f.target_id !== undefined) q = q.where('target_id', '=', f.target_id);
  if (f.since !== undefined) q = q.where('at', '>=', f.since);
  if (f.until !== undefined) q = q.where('at', '<', f.until);
  return q;
}
