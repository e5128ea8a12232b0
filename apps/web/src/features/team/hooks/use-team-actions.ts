import { useCallback } from 'react';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import { useOpenChat } from '../../sessions/hooks/use-open-chat';
import { backToQueue, takeChat } from '../api/team-api';
import { closeQueue } from '../team-view.store';

/**
 * Takes a queued chat and opens it where it now is (the seat's Ungrouped group). Another member
 * first: the request layer shows the translated "already taken" (409002) and the queue's push
 * removes the row.
 */
export function useTake(): (sessionId: number) => Promise<void> {
  const openChat = useOpenChat();
  return useCallback(
    async (sessionId: number) => {
      let taken: SessionItem;
      try {
        taken = await takeChat(sessionId);
      } catch {
        return;
      }
      closeQueue();
      await openChat(taken);
    },
    [openChat],
  );
}

/** Puts a chat the seat holds back in its team's queue (the chat leaves the list by its push). */
export function useBackToQueue(): (user: SessionItem) => Promise<void> {
  const { t } = useTranslation('team');
  return useCallback(
    async (user: SessionItem) => {
      try {
        await backToQueue(user.session_id);
      } catch {
        return;
      }
      notifications.show({ message: t('backInQueue', { phone: user.receiver_phone }) });
    },
    [t],
  );
}
