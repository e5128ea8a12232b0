import { Badge, Code, CopyButton, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WhatsappAccountState, WhatsappStatus } from '@parley/protocol';
import { formatAgo } from '../../../lib/format-time';

const STATE_COLOR = { ok: 'teal', token_invalid: 'red', error: 'yellow' } as const;
const QUALITY_COLOR: Record<string, string> = { GREEN: 'teal', YELLOW: 'yellow', RED: 'red' };

/**
 * The number's token state as a badge (the account list, as a Telegram bot's poll state): a
 * token Meta refused reads as such, its last error in the badge's title.
 */
export function WhatsappStateBadge({ status }: { status: WhatsappAccountState }) {
  const { t } = useTranslation('admin');
  return (
    <Badge
      color={STATE_COLOR[status.state]}
      variant="light"
      data-testid="whatsapp-state"
      data-state={status.state}
      title={status.last_error ?? undefined}
    >
      {t(`accounts.whatsapp.states.${status.state}`)}
    </Badge>
  );
}

/** One value the owner pastes into Meta's app settings, with a copy button. */
function Pasteable({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation('admin');
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code data-testid={testId} style={{ wordBreak: 'break-all' }}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="light" onClick={copy}>
              {copied ? t('accounts.whatsapp.copied') : t('accounts.whatsapp.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </div>
  );
}

/**
 * The WhatsApp number serving the account: its verified name and quality rating as Meta gives
 * them, what to paste into Meta's webhook settings, and a token that stopped working.
 */
export function WhatsappStatusPanel({ status }: { status: WhatsappStatus }) {
  const { t, i18n } = useTranslation('admin');
  return (
    <Stack gap={6} data-testid="whatsapp-status" aria-live="polite">
      <Group gap="xs">
        <Text fw={600} data-testid="whatsapp-verified-name">
          {status.verified_name}
        </Text>
        <Text size="sm" c="dimmed">
          {status.display_phone_number}
        </Text>
        <WhatsappStateBadge status={status} />
        <Badge
          color={QUALITY_COLOR[status.quality_rating] ?? 'gray'}
          variant="outline"
          data-testid="whatsapp-quality"
        >
          {t('accounts.whatsapp.quality', { rating: status.quality_rating })}
        </Badge>
      </Group>
      <Pasteable
        label={t('accounts.whatsapp.webhookUrl')}
        value={status.webhook_url}
        testId="whatsapp-webhook-url"
      />
      <Pasteable
        label={t('accounts.whatsapp.verifyToken')}
        value={status.verify_token}
        testId="whatsapp-verify-token"
      />
      <Text size="xs" c="dimmed">
        {t('accounts.whatsapp.webhookHint')}
      </Text>
      {status.last_error && (
        <Text size="sm" c="red" data-testid="whatsapp-error">
          {t('accounts.whatsapp.lastError', {
            error: status.last_error,
            ago:
              status.last_error_at === null ? '' : formatAgo(status.last_error_at, i18n.language),
          })}
        </Text>
      )}
    </Stack>
  );
}
