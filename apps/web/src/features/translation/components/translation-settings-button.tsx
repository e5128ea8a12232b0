import { useState } from 'react';
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useTranslationSettings } from '../translation.store';
import { TranslateIcon } from './translate-icon';
import { lazyComponent } from '../../../lib/lazy-component';

const TranslationSettingsDialog = lazyComponent(
  async () => (await import('./translation-settings-dialog')).TranslationSettingsDialog,
);

/** The header's entry to the translation settings; lit while translation is on.
 * `compact`: the icon alone (a narrow header), named by its label for screen readers. */
export function TranslationSettingsButton({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation('translation');
  const enabled = useTranslationSettings((s) => s.isEnable);
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant={enabled ? 'light' : 'default'}
        size="compact-sm"
        radius="md"
        aria-label={t('open')}
        title={compact ? t('open') : undefined}
        styles={compact ? { section: { marginInline: 0 } } : undefined}
        leftSection={<TranslateIcon size={14} />}
        onClick={() => setOpened(true)}
        data-testid="translation-settings-open"
        data-enabled={enabled ? 'true' : 'false'}
      >
        {compact ? null : t('open')}
      </Button>
      {opened && <TranslationSettingsDialog onClose={() => setOpened(false)} />}
    </>
  );
}
