import { BUILT_IN_GROUP_NAMES, type Group } from '@parley/protocol';
import type { GroupRow } from '../../db/schema.js';

export function toGroup(
  row: GroupRow,
  unread: number,
  /** The group's chats per time tab (the group list's). */
  totals?: { recent: number; earlier: number },
): Group {
  return {
    group_id: row.id,
    group_name: row.type === 'custom' ? row.name : BUILT_IN_GROUP_NAMES[row.type],
    group_type: row.type,
    un_read: unread,
    disabled: row.type === 'blocked',
    ...(totals ? { total_recent: totals.recent, total_earlier: totals.earlier } : {}),
  };
}

/** Ungrouped first, then custom groups in creation order, then TG link pushed, then Blocked. */
const RANK: Record<GroupRow['type'], number> = {
  ungrouped: 0,
  custom: 1,
  tg_link_pushed: 2,
  blocked: 3,
};
export function sortGroups<G extends GroupRow>(rows: G[]): G[] {
  return [...rows].sort((a, b) => RANK[a.type] - RANK[b.type] || a.id - b.id);
}
