import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  CloseButton,
  FileButton,
  Group,
  Paper,
  ScrollArea,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { PHONE_PATTERN, type SandboxEntry } from '@parley/protocol';
import { LanguageSwitcher } from '../../../components/language-switcher';
import { translateCode } from '../../../lib/i18n';
import {
  readBase64,
  SandboxError,
  sandboxAccounts,
  sandboxChat,
  sandboxSend,
  typeOfFile,
} from '../api/sandbox-api';
import { defaultCustomer } from '../sandbox-key';
import { SandboxMessage } from './sandbox-message';
import { quoteOfEntry, SandboxQuote } from './sandbox-quote';

/** How often the customer's chat is fetched again (the operator's replies, receipts). */
const POLL_MS = 1000;

const isTaken = (err: unknown) => err instanceof SandboxError && err.code === '400003';

/**
 * The customer sandbox (demo): play a customer writing to one of the seats' accounts. What is
 * sent goes through the same signed bridge as the messaging platform's requests. A customer
 * number belongs to the browser that played it first (sandbox-key.ts).
 */
export function SandboxPage() {
  const { t } = useTranslation('sandbox');
  const queryClient = useQueryClient();
  const [picked, setAccount] = useState<string | null>(null);
  const [customer, setCustomer] = useState(defaultCustomer);
  // The name the customer plays under (the platform's `name`): the operator sees it.
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The entry the next message replies to (the "Reply" of a message).
  const [replyTo, setReplyTo] = useState<SandboxEntry | null>(null);
  const bottom = useRef<HTMLDivElement>(null);

  useEffect(() => {
    document.title = `${t('title')} · Parley`;
  }, [t]);

  const accounts = useQuery({ queryKey: ['sandbox', 'accounts'], queryFn: sandboxAccounts });
  // The first account until one is picked.
  const account = picked ?? accounts.data?.[0]?.send_phone ?? null;

  const ready = Boolean(account) && PHONE_PATTERN.test(customer.trim());
  const chatKey = ['sandbox', 'chat', account, customer.trim()];
  const chat = useQuery({
    queryKey: chatKey,
    queryFn: () => sandboxChat(account!, customer.trim()),
    enabled: ready,
    refetchInterval: POLL_MS,
    // Another browser's customer stays so: asking again changes nothing.
    retry: (failures, err) => !isTaken(err) && failures < 3,
  });
  // The number was first played in another browser: it is that browser's customer.
  const taken = isTaken(chat.error);
  const writable = ready && !taken;
  const count = chat.data?.length ?? 0;
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [count]);

  if (accounts.error instanceof SandboxError && accounts.error.code === '404001') {
    return (
      <Box p="xl" data-testid="sandbox-off">
        <Title order={2}>{t('title')}</Title>
        <Text mt="md">{t('off')}</Text>
      </Box>
    );
  }

  const send = async (file?: File | null) => {
    if (!writable || busy || (!file && !text.trim())) return;
    setBusy(true);
    setError(null);
    try {
      await sandboxSend({
        account: account!,
        customer: customer.trim(),
        ...(name.trim() ? { name: name.trim() } : {}),
        type: file ? typeOfFile(file) : 'text',
        content: file ? '' : text,
        ...(file ? { media: { data: await readBase64(file), file_name: file.name } } : {}),
        ...(replyTo ? { reply_to: replyTo.id } : {}),
      });
      setReplyTo(null);
      if (!file) setText('');
      await queryClient.invalidateQueries({ queryKey: chatKey });
    } catch (err) {
      const code = err instanceof SandboxError ? err.code : '500005';
      setError(isTaken(err) ? t('taken') : (translateCode(code) ?? code));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box p="md" maw={720} mx="auto" data-testid="sandbox-page">
      <Group justify="space-between" mb="sm">
        <div>
          <Title order={2}>{t('title')}</Title>
          <Text c="dimmed" size="sm">
            {t('subtitle')}
          </Text>
        </div>
        <LanguageSwitcher />
      </Group>
      <Group grow mb="sm">
        <Select
          label={t('account')}
          data={(accounts.data ?? []).map((a) => ({
            value: a.send_phone,
            label: a.label ? `${a.send_phone} · ${a.label}` : a.send_phone,
          }))}
          value={account}
          onChange={setAccount}
          allowDeselect={false}
          data-testid="sandbox-account"
        />
        <TextInput
          label={t('customer')}
          value={customer}
          onChange={(e) => setCustomer(e.currentTarget.value)}
          error={customer.trim() && !ready && account ? t('badNumber') : undefined}
          data-testid="sandbox-customer"
        />
        <TextInput
          label={t('name')}
          placeholder={t('namePlaceholder')}
          value={name}
          maxLength={128}
          onChange={(e) => setName(e.currentTarget.value)}
          data-testid="sandbox-name"
        />
      </Group>
      <Paper withBorder p="sm">
        <ScrollArea h={420}>
          <Stack gap="xs" data-testid="sandbox-messages">
            {count === 0 && !taken && (
              <Text c="dimmed" size="sm" ta="center" data-testid="sandbox-empty">
                {t('empty')}
              </Text>
            )}
            {chat.data?.map((entry) => (
              <SandboxMessage key={entry.id} entry={entry} onReply={setReplyTo} />
            ))}
            <div ref={bottom} />
          </Stack>
        </ScrollArea>
      </Paper>
      {taken && (
        <Alert color="yellow" mt="sm" data-testid="sandbox-taken">
          {t('taken')}
        </Alert>
      )}
      {error && (
        <Alert color="red" mt="sm" data-testid="sandbox-error">
          {error}
        </Alert>
      )}
      {replyTo && (
        <Group mt="sm" gap="xs" wrap="nowrap" data-testid="sandbox-replying">
          <Box flex={1} miw={0}>
            <SandboxQuote quote={quoteOfEntry(replyTo)} testId="sandbox-replying-quote" />
          </Box>
          <CloseButton
            size="sm"
            onClick={() => setReplyTo(null)}
            aria-label={t('replyCancel')}
            data-testid="sandbox-reply-cancel"
          />
        </Group>
      )}
      <Group mt="sm" align="flex-end" wrap="nowrap">
        <Textarea
          flex={1}
          autosize
          minRows={1}
          maxRows={4}
          placeholder={t('placeholder')}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void send();
            }
          }}
          disabled={!writable}
          data-testid="sandbox-input"
        />
        <FileButton onChange={(file) => void send(file)} disabled={!writable || busy}>
          {(props) => (
            <Button variant="default" {...props} data-testid="sandbox-attach">
              {t('attach')}
            </Button>
          )}
        </FileButton>
        <Button
          onClick={() => void send()}
          loading={busy}
          disabled={!writable}
          data-testid="sandbox-send"
        >
          {t('send')}
        </Button>
      </Group>
    </Box>
  );
}
