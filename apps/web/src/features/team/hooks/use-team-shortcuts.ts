import { useWindowEvent } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { consoleStore } from '../../../stores/console.store';
import { dialogOpen, isTyping } from '../../../lib/keyboard';
import { isTeamChat } from '../api/team-api';
import { openHandOver, requestNote, teamView } from '../team-view.store';
import { useBackToQueue, useTake } from './use-team-actions';

/**
 * The team keys (listed in the help, lib/keyboard.ts SHORTCUTS): T takes the queued chat shown,
 * H hands the open chat over, Q puts it back in the queue, N writes a private note. As the
 * console's other keys: none fires while the operator types or a dialog is open.
 */
export function useTeamShortcuts(): void {
  const qc = useQueryClient();
  const take = useTake();
  const back = useBackToQueue();
  useWindowEvent('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (isTyping(e) || dialogOpen()) return;
    const key = e.key.toLowerCase();
    const { preview } = teamView.get();
    if (key === 't' && preview !== null) {
      e.preventDefault();
      void take(preview);
      return;
    }
    const user = consoleStore.get().selectedUser;
    const open = user && isTeamChat(qc, user) ? user : null;
    if (key === 'n' && (open || preview !== null)) {
      e.preventDefault();
      requestNote();
    } else if (!open) {
      return;
    } else if (key === 'h') {
      e.preventDefault();
      openHandOver(open);
    } else if (key === 'q') {
      e.preventDefault();
      void back(open);
    }
  });
}
