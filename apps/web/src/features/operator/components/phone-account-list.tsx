import { Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PhoneAccount } from '@parley/protocol';

/** The phone accounts assigned to the seat, with their label and channel. */
export function PhoneAccountList({ accounts }: { accounts: PhoneAccount[] }) {
  const { t } = useTranslation('operator');
  if (accounts.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="operator-no-accounts">
        {t('noAccounts')}
      </Text>
    );
  }
  return (
    <Stack gap={4} data-testid="operator-phone-accounts">
      {accounts.map((a) => (
        <Group
          key={a.send_phone}
          gap="xs"
          wrap="nowrap"
          data-testid="operator-phone-account"
          data-phone={a.send_phone}
        >
          <Text size="sm" fw={600}>
            {a.send_phone}
          </Text>
          {a.label && (
            <Text size="xs" c="dimmed" truncate>
              {a.label}
            </Text>
          )}
          <Badge size="xs" variant="light" color="gray">
            {t(`channel.${a.channel}`)}
          </Badge>
        </Group>
      ))}
    </Stack>
  );
}
