import { useTranslation } from 'react-i18next';
import { waitParts } from './use-team-queues';

/** "4 min", "1 h 5 min", "< 1 min" in the operator's language. */
export function useWaitText(): (since: number, now: number) => string {
  const { t } = useTranslation('team');
  return (since, now) => {
    const { h, m } = waitParts(since, now);
    if (h > 0) return t('waitHours', { h, m });
    return m === 0 ? t('waitUnderMinute') : t('waitMinutes', { m });
  };
}
