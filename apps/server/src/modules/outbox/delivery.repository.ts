import type { MessageFailReason, MessageStatus } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { MessageRow } from '../../db/schema.js';

/** Status moves forward only; `failed` only from before delivery. */
const RANK: Record<MessageStatus, number> = {
  pending: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  failed: 1.5,
};

export function canMove(from: MessageStatus, to: MessageStatus): boolean {
  if (from === to) return false;
  if (to === 'failed') return from === 'pending' || from === 'sent';
  if (from === 'failed') return to === 'delivered' || to === 'read';
  return RANK[to] > RANK[from];
}

/** A message with its chat's two numbers (deliveryRepository.messageWithChat). */
export type MessageWithChat = MessageRow & { send_phone: string; receiver_phone: string };

/**
 * An outgoing message's way to the customer, whatever its channel: the outbox worker reads the
 * message it delivers, and the worker and every channel's receipts move its tick.
 */
export const deliveryRepository = {
  async setExternalId(db: Db, msgId: number, externalId: string) {
    await db
      .updateTable('messages')
      .set({ external_id: externalId })
      .where('id', '=', msgId)
      .execute();
  },

  /** A message with its chat's two numbers (any seat: the caller checks the account). */
  messageWithChat(db: Db, msgId: number): Promise<MessageWithChat | undefined> {
    return db
      .selectFrom('messages')
      .innerJoin('sessions', 'sessions.id', 'messages.session_id')
      .selectAll('messages')
      .select(['sessions.send_phone', 'sessions.receiver_phone'])
      .where('messages.id', '=', msgId)
      .executeTakeFirst();
  },

  /**
   * Moves an outgoing message's status forward (compare-and-set, so concurrent receipts never
   * move it back) and keeps the channel's id; answers the row when the status changed.
   * `known`: the row as the caller last read it (the outbox, before delivering): the first try
   * starts from it instead of reading it again; a status moved meanwhile fails the compare and
   * the next try reads it.
   */
  async advanceStatus(
    db: Db,
    msgId: number,
    status: MessageStatus,
    externalId: string | null,
    known?: MessageRow,
    /** With `failed`: why, when the console has words for it. */
    failReason: MessageFailReason | null = null,
  ): Promise<MessageRow | null> {
    for (let tries = 0; tries < 3; tries++) {
      const row =
        tries === 0 && known
          ? known
          : await db.selectFrom('messages').selectAll().where('id', '=', msgId).executeTakeFirst();
      if (!row) return null;
      if (externalId && row.external_id === null) {
        await this.setExternalId(db, msgId, externalId);
      }
      if (!canMove(row.status, status)) return null;
      const updated = await db
        .updateTable('messages')
        .set(status === 'failed' ? { status, fail_reason: failReason } : { status })
        .where('id', '=', msgId)
        .where('status', '=', row.status)
        .returningAll()
        .executeTakeFirst();
      if (updated) return updated;
    }
    return null;
  },
};
