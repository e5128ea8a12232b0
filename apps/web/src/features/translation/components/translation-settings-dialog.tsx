import '../../../components/mantine-console-styles';
import type { ReactNode } from 'react';
import { Divider, Modal, SegmentedControl, Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TranslationMode } from '@parley/protocol';
import { translation, useTranslationSettings } from '../translation.store';
import { EngineInfo } from './engine-info';
import { LanguageSelect } from './language-select';
import { TranslationHistoryPanel } from './translation-history-panel';

/**
 * The translation settings (spec section 3): on/off, mode, the customer's and the operator's
 * language, the engine and what it offers, and the history. Every change applies at once and
 * is stored under `translate` (kept across logout).
 */
export function TranslationSettingsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('translation');
  const s = useTranslationSettings((v) => v);

  return (
    <Modal opened onClose={onClose} title={t('title')} size="lg">
      <Stack gap="md" data-testid="translation-settings">
        <Switch
          label={t('enable')}
          checked={s.isEnable}
          onChange={(e) => translation.update({ isEnable: e.currentTarget.checked })}
          data-testid="translation-enable"
        />
        <Section label={t('mode')}>
          <SegmentedControl
            fullWidth
            size="xs"
            value={s.mode}
            onChange={(v) => translation.update({ mode: v as TranslationMode })}
            data={[
              { value: 'single', label: t('modeSingle') },
              { value: 'auto_all', label: t('modeAutoAll') },
            ]}
            data-testid="translation-mode"
          />
          <Text size="xs" c="dimmed">
            {s.mode === 'single' ? t('modeSingleHint') : t('modeAutoAllHint')}
          </Text>
        </Section>
        <LanguageSelect
          label={t('sourceLanguage')}
          description={t('sourceLanguageHint')}
          value={s.sourceLanguage}
          onChange={(v) => v && translation.update({ sourceLanguage: v })}
          testId="translation-source"
        />
        <LanguageSelect
          label={t('targetLanguage')}
          description={t('targetLanguageHint')}
          value={s.targetLanguage}
          onChange={(v) => v && translation.update({ targetLanguage: v })}
          testId="translation-target"
        />
        <Section label={t('engineSection')}>
          <EngineInfo source={s.sourceLanguage} target={s.targetLanguage} />
        </Section>
        <Divider />
        <Section label={t('history')}>
          <TranslationHistoryPanel />
        </Section>
      </Stack>
    </Modal>
  );
}

function Section({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}
