import { Anchor, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/api-core';
import { translateCode } from '../../../lib/i18n';
import type { LocalMessage } from '../../messages/local-messages.store';
import { discardLocal } from '../../messages/outbox/local-actions';

interface Props {
  local: LocalMessage;
  onRetry: (m: LocalMessage) => void;
}

/** Under a local insert: waiting for the server, or refused with the reason, retry, discard. */
export function LocalMessageStatus({ local, onRetry }: Props) {
  const { t } = useTranslation('outbox');
  if (local.status === 'waiting') {
    return (
      <Text size="xs" c="dimmed" ta="right" data-testid="message-waiting">
        {t('waiting')}
      </Text>
    );
  }
  if (local.status !== 'failed') return null;
  // Translated when shown, so a language switch applies to it too.
  const reason = local.error
    ? errorText(local.error.code, local.error.msg, translateCode)
    : t('failed');
  return (
    <Group gap={8} justify="flex-end" wrap="nowrap">
      <Text size="xs" c="red" data-testid="message-error">
        {reason}
      </Text>
      <Anchor
        component="button"
        size="xs"
        c="red"
        fw={600}
        onClick={() => onRetry(local)}
        data-testid="message-retry"
      >
        {t('chat:retry')}
      </Anchor>
      <Anchor
        component="button"
        size="xs"
        c="dimmed"
        onClick={() => discardLocal(local)}
        data-testid="message-discard"
      >
        {t('discard')}
      </Anchor>
    </Group>
  );
}
