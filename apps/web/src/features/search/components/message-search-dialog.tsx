import '../../../components/mantine-console-styles';
import { useCallback, useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SEARCH_WORD_MIN } from '@parley/protocol';
import { useOpenChat } from '../../sessions/hooks/use-open-chat';
import type { AddressBookEntry } from '@parley/protocol';
import { validSearchWord, type SearchHit } from '../api/search-queries';
import { CustomerMatches } from './customer-matches';
import { SearchResults } from './search-results';

interface Props {
  opened: boolean;
  onClose: () => void;
}

/**
 * Message search across all the seat's chats, with the customers the word names (by name,
 * remark or number) above the hits. A word shorter than the spec's minimum shows its
 * validation message and sends nothing; a hit opens its chat at that message.
 */
export function MessageSearchDialog({ opened, onClose }: Props) {
  const { t } = useTranslation('search');
  const openChat = useOpenChat();
  const [input, setInput] = useState('');
  const [word, setWord] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const valid = validSearchWord(input);
    if (valid === null) {
      setError(t('wordTooShort', { count: SEARCH_WORD_MIN }));
      // The previous word's hits would read as answers to this one.
      setWord('');
      return;
    }
    setError(null);
    setWord(valid);
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
              placeholder={t('placeholder', { count: SEARCH_WORD_MIN })}
              aria-label={t('title')}
              error={error}
              data-testid="message-search-input"
            />
            <Button type="submit" data-testid="message-search-submit">
              {t('submit')}
            </Button>
          </Group>
        </form>
        {word ? (
          <>
            <CustomerMatches word={word} onOpen={onOpenCustomer} />
            <SearchResults word={word} onOpen={onOpen} />
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
