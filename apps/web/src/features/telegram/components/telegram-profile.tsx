import { Avatar, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { tgUserInfoQuery } from '../api/telegram-queries';

/** The Telegram profile (tg/userInfo) of a Telegram chat's customer. */
export function TelegramProfile({ sessionId }: { sessionId: number }) {
  const { t } = useTranslation('profile');
  const { data, isPending, isError } = useQuery(tgUserInfoQuery(sessionId));
  if (isPending) return <Skeleton h={48} />;
  if (isError || !data) {
    return (
      <Text size="sm" c="dimmed" data-testid="profile-tg-none">
        {t('tgNone')}
      </Text>
    );
  }
  const name = [data.first_name, data.last_name].filter(Boolean).join(' ');
  return (
    <Group gap="sm" wrap="nowrap" data-testid="profile-tg">
      <Avatar
        src={data.photo_url}
        alt={name || data.username || ''}
        radius="xl"
        size="lg"
        name={name || data.username || undefined}
        data-testid="profile-tg-photo"
      />
      <Stack gap={0}>
        {name && (
          <Text fw={600} data-testid="profile-tg-name">
            {name}
          </Text>
        )}
        {data.username && (
          <Text size="sm" c="dimmed" data-testid="profile-tg-username">
            @{data.username}
          </Text>
        )}
      </Stack>
    </Group>
  );
}
