import { Stack, Text, UnstyledButton, Group } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AddressBookEntry } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';
import { CustomerAvatar } from '../../../components/customer-avatar';
import { customerDisplayName } from '../../../lib/customer-name';

/** The few customers whose name, remark or number holds the word (the address book's filter). */
const CUSTOMER_MATCHES = 5;

function customerMatchesQuery(word: string) {
  return queryOptions({
    queryKey: ['customerSearch', word] as const,
    queryFn: ({ signal }) =>
      callApi(
        '/v1/seat/chat/addressBook',
        { keyword: word, page_size: CUSTOMER_MATCHES },
        { signal },
      ),
    staleTime: 30_000,
  });
}

/** Customers found by the searched word, above the message hits; one opens its chat. */
export function CustomerMatches({
  word,
  onOpen,
}: {
  word: string;
  onOpen: (entry: AddressBookEntry) => void;
}) {
  const { t } = useTranslation('search');
  const { data } = useQuery(customerMatchesQuery(word));
  if (!data || data.list.length === 0) return null;
  return (
    <Stack gap={4} data-testid="customer-matches">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {t('customers', { count: data.total })}
      </Text>
      {data.list.map((entry) => (
        <UnstyledButton
          key={entry.session_id}
          onClick={() => onOpen(entry)}
          data-testid="customer-match"
          data-session-id={entry.session_id}
          style={{ padding: '4px 6px', borderRadius: 6 }}
        >
          <Group gap="sm" wrap="nowrap">
            <CustomerAvatar customer={entry} size={32} testId="customer-match-avatar" />
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text size="sm" fw={600} truncate data-testid="customer-match-name">
                {customerDisplayName(entry)}
              </Text>
              <Text size="xs" c="dimmed" truncate>
                {entry.receiver_phone} · {t('via', { phone: entry.send_phone })}
              </Text>
            </Stack>
          </Group>
        </UnstyledButton>
      ))}
    </Stack>
  );
}
