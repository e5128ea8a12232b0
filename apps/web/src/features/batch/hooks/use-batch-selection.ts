import { useCallback, useMemo, useState } from 'react';
import type { SessionItem } from '@parley/protocol';

export interface BatchSelection {
  /** Whole groups, with how many chats each has. */
  groups: ReadonlyMap<number, number>;
  /** Chats chosen one by one. */
  sessions: ReadonlyMap<number, SessionItem>;
}

/** The chats a selection reaches: whole groups plus the chosen chats outside them. */
export function countChosen(sel: BatchSelection): number {
  let n = 0;
  for (const total of sel.groups.values()) n += total;
  for (const s of sel.sessions.values()) if (!sel.groups.has(s.group_id)) n += 1;
  return n;
}

/** The request's targets: the groups, and the chosen chats not already in them. */
export function targetsOf(sel: BatchSelection): { session_ids: number[]; group_ids: number[] } {
  return {
    group_ids: [...sel.groups.keys()],
    session_ids: [...sel.sessions.values()]
      .filter((s) => !sel.groups.has(s.group_id))
      .map((s) => s.session_id),
  };
}

export function useBatchSelection() {
  const [selection, setSelection] = useState<BatchSelection>({
    groups: new Map(),
    sessions: new Map(),
  });

  const toggleGroup = useCallback((groupId: number, total: number) => {
    setSelection((sel) => {
      const groups = new Map(sel.groups);
      if (groups.has(groupId)) groups.delete(groupId);
      else groups.set(groupId, total);
      return { ...sel, groups };
    });
  }, []);

  const toggleSession = useCallback((session: SessionItem) => {
    setSelection((sel) => {
      const sessions = new Map(sel.sessions);
      if (sessions.has(session.session_id)) sessions.delete(session.session_id);
      else sessions.set(session.session_id, session);
      return { ...sel, sessions };
    });
  }, []);

  const count = useMemo(() => countChosen(selection), [selection]);
  return { selection, count, toggleGroup, toggleSession };
}
