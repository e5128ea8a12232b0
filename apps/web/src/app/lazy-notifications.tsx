import { notificationsStore, useNotifications } from '@mantine/notifications';
import { lazyComponent } from '../lib/lazy-component';
import { useOpenedOnce } from '../lib/use-opened-once';

const POSITION = 'top-right';
const LIMIT = 4;

// A module of ours, not the package: a dynamic import of the package itself would pull the
// container into the start bundle along with the store imported above.
export const NotificationsContainer = lazyComponent(
  async () => (await import('./notifications-container')).NotificationsContainer,
);

// Toasts shown before the container is loaded wait in the store, placed as the container will.
notificationsStore.updateState((state) => ({ ...state, defaultPosition: POSITION, limit: LIMIT }));

/**
 * Mantine's toast container, fetched with the first toast: most screens show none, and the
 * login screen's download stays small (issue 11's budget).
 */
export function LazyNotifications() {
  const { notifications, queue } = useNotifications();
  const mounted = useOpenedOnce(notifications.length + queue.length > 0);
  return mounted ? <NotificationsContainer position={POSITION} limit={LIMIT} /> : null;
}
