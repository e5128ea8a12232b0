import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import { TelegramProfile } from './telegram-profile';

/** The profile card's Telegram row: the customer's Telegram profile. */
export function TelegramProfileRows({ user }: { user: SessionItem }) {
  const { t } = useTranslation('profile');
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {t('telegram')}
      </Text>
      <TelegramProfile sessionId={user.session_id} />
    </Stack>
  );
}
