import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRealtimeOnline } from '../../../stores/realtime.store';

/** Shown while the push socket is down (it reconnects by itself). */
export function OfflineIndicator() {
  const { t } = useTranslation('realtime');
  const online = useRealtimeOnline();
  if (online !== false) return null;
  return (
    <Tooltip label={t('offlineHint')}>
      <Badge color="orange" variant="light" data-testid="realtime-offline">
        {t('offline')}
      </Badge>
    </Tooltip>
  );
}
