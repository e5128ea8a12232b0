import { useEffect } from 'react';
import { ConfirmModal } from '../../components/confirm-modal';
import { ExpiredDialog } from '../expired-modal';
import { NotificationsContainer } from '../lazy-notifications';
import { preloadOpenChat } from './chat/lazy-open-chat';

/** Long enough for the console's first screen and its data to have arrived. */
const PREFETCH_AFTER_MS = 3000;

/**
 * The code the console shows while the server cannot be reached (toasts, the unsent-messages
 * and expired-login dialogs, the open chat whose outbox waits) is fetched in the background a
 * few seconds after the console is up: the first screen does not wait for it, and a server
 * that goes down later does not leave the console without it.
 */
export function useOfflineCode(): void {
  useEffect(() => {
    const timer = setTimeout(() => {
      const fetchAll = () =>
        [NotificationsContainer, ExpiredDialog, ConfirmModal].forEach((c) => c.preload());
      preloadOpenChat();
      // The app shell's service worker (offline start, Web Push), after the first screen.
      void import('../../lib/push-device')
        .then((m) => m.startServiceWorker())
        .catch(() => undefined);
      if ('requestIdleCallback' in window) window.requestIdleCallback(fetchAll);
      else fetchAll();
    }, PREFETCH_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
}
