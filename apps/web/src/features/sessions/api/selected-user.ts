import type { SessionItem } from '@parley/protocol';

/** Fields whose change alone does not replace the selected user (spec section 4). */
const VOLATILE: ReadonlySet<string> = new Set(['add_time', 'latest_time', 'un_read_count']);

/** True when the refreshed item differs from the selected one in more than the volatile fields. */
export function selectedUserChanged(prev: SessionItem, next: SessionItem): boolean {
  for (const key of Object.keys(next) as (keyof SessionItem)[]) {
    if (VOLATILE.has(key)) continue;
    if (JSON.stringify(prev[key]) !== JSON.stringify(next[key])) return true;
  }
  return false;
}

/**
 * The selected user after a refresh of the user list (spec section 4): its fresh item when
 * that differs in more than add_time, latest_time and un_read_count, else null (keep it).
 */
export function refreshedSelection(
  selected: SessionItem,
  users: readonly SessionItem[],
): SessionItem | null {
  const fresh = users.find((u) => u.session_id === selected.session_id);
  return fresh && selectedUserChanged(selected, fresh) ? fresh : null;
}
