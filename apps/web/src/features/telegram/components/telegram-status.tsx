import { Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TelegramStatus } from '@parley/protocol';
import { formatAgo } from '../../../lib/format-time';

const STATE_COLOR = { polling: 'teal', starting: 'blue', stalled: 'yellow', error: 'red' } as const;

/** A bound bot's long-poll state, as a badge. */
export function PollBadge({ status }: { status: TelegramStatus }) {
  const { t } = useTranslation('admin');
  return (
    <Badge
      color={STATE_COLOR[status.state]}
      variant="light"
      data-testid="telegram-state"
      data-state={status.state}
    >
      {t(`accounts.telegram.states.${status.state}`)}
    </Badge>
  );
}

/** The bot serving the account: who it is, its long-poll state and its last error. */
export function TelegramStatusPanel({ status }: { status: TelegramStatus }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  return (
    <Stack gap={4} data-testid="telegram-status" aria-live="polite">
      <Group gap="xs">
        <Text fw={600}>@{status.bot_username}</Text>
        <PollBadge status={status} />
      </Group>
      <Text size="sm" c="dimmed">
        {t('accounts.telegram.token', { token: status.token })}
      </Text>
      <Text size="sm">
        {status.last_poll_at === null
          ? t('accounts.telegram.neverPolled')
          : t('accounts.telegram.lastPoll', { ago: formatAgo(status.last_poll_at, lang) })}
      </Text>
      {status.last_error && (
        <Text size="sm" c="red" data-testid="telegram-error">
          {t('accounts.telegram.lastError', {
            error: status.last_error,
            ago: status.last_error_at === null ? '' : formatAgo(status.last_error_at, lang),
          })}
        </Text>
      )}
    </Stack>
  );
}
