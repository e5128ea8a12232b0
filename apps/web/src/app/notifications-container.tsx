import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';

/** Mantine's toast container with the console's placement (loaded by LazyNotifications). */
export function NotificationsContainer({
  position,
  limit,
}: {
  position: 'top-right';
  limit: number;
}) {
  return <Notifications position={position} limit={limit} />;
}
