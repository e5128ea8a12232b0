import '../../../components/mantine-console-styles';
import { useCallback, useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CUSTOMER_SEARCH_MIN, SEARCH_WORD_MIN } from '@parley/protocol';
import { useOpenChat } from '../../sessions/hooks/use-open-chat';
import type { AddressBookEntry } from '@parley/protocol';
import { searchScope, type SearchHit } from '../api/search-queries';
import { CustomerMatches } from './customer-matches';
import { SearchResults } from './search-results';

interface Props {
  opened: boolean;
  onClose: () => void;
}

/**
 * Message search across all the seat's chats, with the customers the word names (by name,
 * remark or number) above the hits. Customers are searched from CUSTOMER_SEARCH_MIN characters,
 * message text from the spec's SEARCH_WORD_MIN (a shorter word says so in place of the hits); a
 * word shorter than both shows the validation message and sends nothing. A hit opens its chat
 * at that message.
 */
export function MessageSearchDialog({ opened, onClose }: Props) {
  const { t } = useTranslation('search');
  const openChat = useOpenChat();
  const [input, setInput] = useState('');
  const [scope, setScope] = useState<{ word: string; text: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = searchScope(input);
    if (next === null) {
      setError(t('wordTooShort', { count: CUSTOMER_SEARCH_MIN }));
      // The previous word's hits would read as answers to this one.
      setScope(null);
      return;
    }
    setError(null);
    setScope(next);
  };

  const onOpen = useCallback(
    (hit: SearchHit) => {
      onClose();
      void openChat(hit.session, hit.message.msg_id);
    },
    [onClose, openChat],
  );

  const onOpenCustomer = useCallback(
    (entry: AddressBookEntry) => {
      onClose();
      void openChat(entry);
    },
    [onClose, openChat],
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('title')}
      size="lg"
      data-testid="message-search-dialog"
    >
      <Stack gap="sm">
        <form onSubmit={submit} noValidate>
          <Group align="flex-start" wrap="nowrap" gap="xs">
            <TextInput
              flex={1}
              data-autofocus
              value={input}
              onChange={(e) => {
                setInput(e.currentTarget.value);
                if (error) setError(null);
              }}
              placeholder={t('placeholder')}
              aria-label={t('title')}
              error={error}
              data-testid="message-search-input"
            />
            <Button type="submit" data-testid="message-search-submit">
              {t('submit')}
            </Button>
          </Group>
        </form>
        {scope ? (
          <>
            <CustomerMatches word={scope.word} onOpen={onOpenCustomer} />
            {scope.text ? (
              <SearchResults word={scope.word} onOpen={onOpen} />
            ) : (
              <Text size="sm" c="dimmed" data-testid="message-search-text-short">
                {t('textTooShort', { count: SEARCH_WORD_MIN })}
              </Text>
            )}
          </>
        ) : (
          <Text size="sm" c="dimmed">
            {t('hint')}
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
