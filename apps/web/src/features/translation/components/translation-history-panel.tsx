import { useState } from 'react';
import { Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TRANSLATION_CACHE_DISPLAY_DAYS, TRANSLATION_CACHE_MINUTES } from '@parley/protocol';
import { cacheDays, MINUTES_PER_DAY } from '../translation-history';
import { translation, useTranslationSettings } from '../translation.store';

/** How long translations are kept, how many are, and clearing the oldest N or all. */
export function TranslationHistoryPanel() {
  const { t } = useTranslation('translation');
  const cacheTime = useTranslationSettings((s) => s.cacheTime);
  const count = useTranslationSettings((s) => s.hisTranslateMsg.length);
  const [oldest, setOldest] = useState<number>(10);

  return (
    <Stack gap="xs">
      <NumberInput
        label={t('cacheDays')}
        description={t('cacheDefault', {
          days: TRANSLATION_CACHE_DISPLAY_DAYS,
          minutes: TRANSLATION_CACHE_MINUTES,
        })}
        value={cacheDays(cacheTime)}
        min={0.01}
        max={365}
        step={1}
        decimalScale={2}
        onChange={(v) => {
          const days = typeof v === 'number' ? v : Number(v);
          if (Number.isFinite(days) && days > 0) {
            translation.update({ cacheTime: Math.max(1, Math.round(days * MINUTES_PER_DAY)) });
          }
        }}
        data-testid="translation-cache-days"
      />
      <Text size="xs" c="dimmed" data-testid="translation-cache-minutes">
        {t('cacheMinutes', { count: cacheTime })}
      </Text>
      <Text size="sm" data-testid="translation-history-count" data-count={count}>
        {t('historyCount', { count })}
      </Text>
      <Group gap="xs" align="flex-end">
        <NumberInput
          w={110}
          label={t('clearCount')}
          value={oldest}
          min={1}
          step={1}
          allowDecimal={false}
          onChange={(v) => setOldest(Math.max(1, Math.floor(Number(v) || 1)))}
          data-testid="translation-clear-count"
        />
        <Button
          variant="light"
          disabled={count === 0}
          onClick={() => translation.clear(oldest)}
          data-testid="translation-clear-oldest"
        >
          {t('clearOldest', { count: oldest })}
        </Button>
        <Button
          variant="light"
          color="red"
          disabled={count === 0}
          onClick={() => translation.clear()}
          data-testid="translation-clear-all"
        >
          {t('clearAll')}
        </Button>
      </Group>
    </Stack>
  );
}
