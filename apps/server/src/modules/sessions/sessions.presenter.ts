import type { SessionItem } from '@parley/protocol';
import type { SessionRow } from '../../db/schema.js';

export function toSessionItem(row: SessionRow, recentSince: number): SessionItem {
  return {
    session_id: row.id,
    send_phone: row.send_phone,
    receiver_phone: row.receiver_phone,
    un_read_count: row.un_read_count,
    add_time: row.add_time,
    latest_time: row.latest_time,
    group_id: row.group_id,
    is_top: row.is_top === 1,
    remark: row.remark,
    blocked: row.blocked === 1,
    user_time_type: row.latest_time >= recentSince ? 1 : 2,
    customer_language: row.customer_language,
    last_message:
      row.last_type && row.last_direction
        ? {
            type: row.last_type,
            direction: row.last_direction,
            preview: row.last_preview ?? '',
            created_at: row.latest_time,
          }
        : null,
  };
}
