import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { groupListQuery } from '../api/session-cache';
import {
  clearSelection,
  consoleStore,
  refreshSelectedGroup,
  selectGroup,
  useConsole,
} from '../../../stores/console.store';

/** The polled group list, and the selected group kept in step with it. */
export function useGroupList() {
  const reply = useConsole((s) => s.reply);
  return useQuery(groupListQuery(reply));
}

export function useGroupSelectionSync() {
  const { data } = useGroupList();
  const autoSelected = useRef(false);
  useEffect(() => {
    if (!data) return;
    const selected = consoleStore.get().selectedGroup;
    if (!selected) {
      // On entering the console with nothing selected, open the first group once.
      const first = data.group_list[0];
      if (!autoSelected.current && first) selectGroup(first);
      autoSelected.current = true;
      return;
    }
    autoSelected.current = true;
    const fresh = data.group_list.find((g) => g.group_id === selected.group_id);
    if (!fresh) clearSelection();
    else if (
      fresh.group_name !== selected.group_name ||
      fresh.un_read !== selected.un_read ||
      fresh.disabled !== selected.disabled
    ) {
      refreshSelectedGroup(fresh);
    }
  }, [data]);
}
