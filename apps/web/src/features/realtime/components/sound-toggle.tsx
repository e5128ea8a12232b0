import { Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { setSoundMuted, useSoundMuted } from '../attention';

/** The new-message sound, on or off in this browser (operator information dialog). */
export function SoundToggle() {
  const { t } = useTranslation('realtime');
  const muted = useSoundMuted();
  return (
    <Switch
      checked={!muted}
      onChange={(e) => setSoundMuted(!e.currentTarget.checked)}
      label={t('sound')}
      description={t('soundHint')}
      data-testid="operator-sound"
    />
  );
}
