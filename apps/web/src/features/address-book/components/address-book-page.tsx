import '../../../components/mantine-console-styles';
import { useCallback, useState } from 'react';
import { Center, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { PagedVirtualList } from '../../../components/paged-virtual-list';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { AddressBookEntry } from '@parley/protocol';
import { useOpenChat } from '../../sessions/hooks/use-open-chat';
import { useAddressBook } from '../hooks/use-address-book';
import { AddressBookEmpty } from './address-book-empty';
import { AddressBookItem } from './address-book-item';
import { RemarkModal } from './remark-modal';

/** Every customer the seat chats with, across its accounts, by number (virtualised). */
export function AddressBookPage() {
  const { t } = useTranslation('addressBook');
  const [input, setInput] = useState('');
  const [keyword] = useDebouncedValue(input.trim(), 300);
  const { entries, total, isPending, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useAddressBook(keyword);
  const [editing, setEditing] = useState<AddressBookEntry | null>(null);
  const openChat = useOpenChat();

  const onOpenChat = useCallback(
    ({ group_name: _n, group_type: _t, ...session }: AddressBookEntry) => void openChat(session),
    [openChat],
  );
  const renderItem = useCallback(
    (e: AddressBookEntry) => (
      <AddressBookItem entry={e} onEditRemark={setEditing} onOpenChat={onOpenChat} />
    ),
    [onOpenChat],
  );

  return (
    <Stack h="100%" gap={0} data-testid="address-book">
      <Group justify="space-between" px="md" py="sm" wrap="nowrap">
        <Group gap="sm" align="baseline">
          <Title order={3}>{t('title')}</Title>
          <Text size="sm" c="dimmed" data-testid="address-book-total" data-total={total}>
            {isPending ? '' : t('total', { count: total })}
          </Text>
        </Group>
        <TextInput
          w={320}
          value={input}
          onChange={(e) => setInput(e.currentTarget.value)}
          placeholder={t('searchPlaceholder')}
          aria-label={t('searchPlaceholder')}
          data-testid="address-book-search"
        />
      </Group>
      <div style={{ flex: 1, minHeight: 0 }} data-testid="address-book-list">
        {isPending ? (
          <Center h="100%">
            <Loader size="sm" />
          </Center>
        ) : entries.length === 0 ? (
          <AddressBookEmpty keyword={keyword} onClear={() => setInput('')} />
        ) : (
          <PagedVirtualList
            items={entries}
            itemKey={(e) => e.session_id}
            renderItem={renderItem}
            hasNextPage={hasNextPage}
            isFetchingNextPage={isFetchingNextPage}
            fetchNextPage={fetchNextPage}
            overscan={300}
          />
        )}
      </div>
      {editing && <RemarkModal entry={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
