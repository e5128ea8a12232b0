import { z } from 'zod';
import {
  id as idSchema,
  type AdminCallRequest,
  type AuditAction,
  type AuditEntry,
} from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { AuditLogTable, AuditRow } from '../../db/schema.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { afterCommit } from '../../lib/tx.js';
import { auditRepository } from './admin.repository.js';

/** Who acts: an administrator in the console, or the command line. */
export type Actor = { type: 'admin'; name: string } | { type: 'cli'; name: 'cli' };
export const CLI_ACTOR: Actor = { type: 'cli', name: 'cli' };

/** Keyset cursor of the newest-first lists: the last row's id. */
export const idCursor = z.tuple([idSchema]);

/**
 * The audit log: one row per administrator action, written in the transaction of the action
 * (an action that rolls back leaves no row), with the target before and after. Secrets
 * (passwords, bot tokens) are never written.
 */
export class AuditService {
  constructor(private readonly db: Db) {}

  private readonly listeners = new Set<(targetType: AuditLogTable['target_type']) => void>();

  /** Told after an action committed (the admin push channel: lists changed). */
  onRecorded(listener: (targetType: AuditLogTable['target_type']) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async record(
    trx: Db,
    actor: Actor,
    action: AuditAction,
    targetType: AuditLogTable['target_type'],
    targetId: number,
    target: string,
    before: Record<string, unknown> | null,
    after: Record<string, unknown> | null,
  ): Promise<void> {
    await auditRepository.insert(trx, {
      at: Date.now(),
      actor_type: actor.type,
      actor: actor.name,
      action,
      target_type: targetType,
      target_id: targetId,
      target,
      before: before ? JSON.stringify(before) : null,
      after: after ? JSON.stringify(after) : null,
    });
    afterCommit(trx, () => this.listeners.forEach((listener) => listener(targetType)));
  }

  async list(input: AdminCallRequest<'/v1/admin/audit/list'>) {
    const beforeId = input.cursor ? decodeCursor(input.cursor, idCursor)[0] : null;
    const filter = {
      actor: input.actor,
      action: input.action,
      target_type: input.target_type,
      target_id: input.target_id,
      since: input.since,
      until: input.until,
    };
    const rows = await auditRepository.page(this.db, filter, beforeId, input.page_size + 1);
    const page = rows.slice(0, input.page_size);
    return {
      list: page.map(toAuditEntry),
      total: await auditRepository.count(this.db, filter),
      next_cursor: rows.length > input.page_size ? encodeCursor([page[page.length - 1]!.id]) : null,
    };
  }
}

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    audit_id: row.id,
    at: Number(row.at),
    actor_type: row.actor_type,
    actor: row.actor,
    action: row.action as AuditAction,
    target_type: row.target_type,
    target_id: row.target_id,
    target: row.target,
    before: row.before ? (JSON.parse(row.before) as Record<string, unknown>) : null,
    after: row.after ? (JSON.parse(row.after) as Record<string, unknown>) : null,
  };
}
