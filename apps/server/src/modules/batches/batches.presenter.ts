import type { BatchStatus } from '@parley/protocol';
import type { BatchItemRow, BatchRow } from '../../db/schema.js';

/** A batch and its items as the protocol's batch status (counts from the items themselves). */
export function toBatchStatus(batch: BatchRow, items: BatchItemRow[]): BatchStatus {
  let sent = 0;
  let failed = 0;
  for (const item of items) {
    if (item.status === 'sent') sent += 1;
    else if (item.status === 'failed') failed += 1;
  }
  return {
    batch_id: batch.batch_id,
    total: batch.total,
    sent,
    failed,
    done: sent + failed === batch.total,
    created_at: batch.created_at,
    results: items.map((item) => ({
      session_id: item.session_id,
      receiver_phone: item.receiver_phone,
      status: item.status,
      msg_id: item.msg_id,
      code: item.code,
    })),
  };
}
