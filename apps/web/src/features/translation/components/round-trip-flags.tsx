import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RoundTripFlag } from '@parley/protocol';

/** What did not survive a reply's round trip, one line per fact, in the operator's words. */
export function RoundTripFlags({ flags }: { flags: RoundTripFlag[] }) {
  const { t } = useTranslation('translation');
  if (flags.length === 0) return null;
  return (
    <Stack gap={0} data-testid="round-trip-flags">
      {flags.map((f, i) => (
        <Text key={i} size="xs" c="orange.8" data-testid="round-trip-flag">
          ⚠{' '}
          {t(`flag_${f.change}_${f.stage}`, {
            kind: t(`fact_${f.kind}`),
            value: f.value,
          })}
        </Text>
      ))}
    </Stack>
  );
}
