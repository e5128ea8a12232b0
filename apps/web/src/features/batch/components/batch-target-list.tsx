import { useState } from 'react';
import { ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useGroupList } from '../../sessions/hooks/use-group-list';
import type { useBatchSelection } from '../hooks/use-batch-selection';
import { BatchGroupRow } from './batch-group-row';

interface Props {
  selection: ReturnType<typeof useBatchSelection>;
}

/** The groups with their chats: search, choose chats one by one or whole groups. */
export function BatchTargetList({ selection }: Props) {
  const { t } = useTranslation('batch');
  const { data } = useGroupList();
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 300);
  // The Blocked group is disabled: nothing can be sent to its chats.
  const groups = (data?.group_list ?? []).filter((g) => !g.disabled);

  return (
    <Stack gap="xs" h="100%">
      <TextInput
        placeholder={t('search')}
        aria-label={t('search')}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        data-testid="batch-search"
      />
      <ScrollArea flex={1} type="auto" data-testid="batch-targets">
        {groups.map((g) => (
          <BatchGroupRow key={g.group_id} group={g} query={query} selection={selection} />
        ))}
        {groups.length === 0 && (
          <Text c="dimmed" size="sm" ta="center" mt="md">
            {t('noGroups')}
          </Text>
        )}
      </ScrollArea>
    </Stack>
  );
}
