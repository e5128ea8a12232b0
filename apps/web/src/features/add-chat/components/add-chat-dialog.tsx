import '../../../components/mantine-console-styles';
import { useState } from 'react';
import { Alert, Group, Input, Modal, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MESSAGE_TEXT_MAX, channelAbilities, type WhatsappTemplateSend } from '@parley/protocol';
import { ThrottledButton } from '../../../components/throttled-button';
import { ApiError } from '../../../lib/api-core';
import { newClientMsgId } from '../../../lib/client-msg-id';
import { readItem } from '../../../lib/storage';
import { addChatErrors, NUMBER_CODES, type AddChatErrors } from '../add-chat.validation';
import { useAddChat } from '../hooks/use-add-chat';
import type { TemplateGreetingOf } from '../template-greeting';

type ServerErrors = { receiverPhone?: string; form?: string };

/**
 * Start a chat: one of the seat's accounts, the customer's number, a greeting sent first (on a
 * channel that greets with a template, an approved one: `templateGreeting` gives the channel's
 * picker).
 */
export function AddChatDialog({
  onClose,
  templateGreeting: greetingOf,
}: {
  onClose: () => void;
  templateGreeting?: TemplateGreetingOf | undefined;
}) {
  const { t } = useTranslation('add-chat');
  const accounts = readItem('userInfo')?.phone_accounts ?? [];
  const addChat = useAddChat();
  const [sendPhone, setSendPhone] = useState<string | null>(accounts[0]?.send_phone ?? null);
  const [receiverPhone, setReceiverPhone] = useState('');
  const [greeting, setGreeting] = useState('');
  const [errors, setErrors] = useState<AddChatErrors>({});
  const [server, setServer] = useState<ServerErrors>({});
  const [busy, setBusy] = useState(false);
  // One id per dialog: a retry after a lost answer cannot open the chat twice.
  const [clientMsgId] = useState(newClientMsgId);
  // A channel that greets with an approved template takes nothing else then (WhatsApp).
  const [template, setTemplate] = useState<WhatsappTemplateSend | null>(null);
  const channel = accounts.find((a) => a.send_phone === sendPhone)?.channel;
  const templateGreeting = greetingOf?.(channel);
  const TemplatePicker =
    channelAbilities(channel).greeting === 'template' ? templateGreeting?.Picker : undefined;

  const submit = async () => {
    const found = addChatErrors({
      sendPhone,
      receiverPhone,
      greeting,
      ...(TemplatePicker ? { template: template !== null } : {}),
    });
    setErrors(found);
    setServer({});
    if (Object.keys(found).length > 0 || !sendPhone) return;
    setBusy(true);
    try {
      await addChat({
        send_phone: sendPhone,
        receiver_phone: receiverPhone.trim(),
        ...(TemplatePicker && template ? { template } : { greeting: greeting.trim() }),
        client_msg_id: clientMsgId,
      });
      onClose();
    } catch (err) {
      const refusal = err instanceof ApiError && (err.data as { reason?: string } | null)?.reason;
      const message =
        refusal && templateGreeting
          ? templateGreeting.refusalText(err, t)
          : err instanceof ApiError
            ? err.message
            : t('failed');
      const onNumber = err instanceof ApiError && NUMBER_CODES.includes(err.code);
      setServer(onNumber ? { receiverPhone: message } : { form: message });
    } finally {
      setBusy(false);
    }
  };

  const numberError =
    (errors.receiverPhone && t(`errors:${errors.receiverPhone}`)) || server.receiverPhone;

  return (
    <Modal opened onClose={onClose} title={t('title')} centered>
      <form
        data-testid="add-chat-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <Select
            label={t('account')}
            data={accounts.map((a) => ({
              value: a.send_phone,
              label: a.label ? `${a.send_phone} · ${a.label}` : a.send_phone,
            }))}
            value={sendPhone}
            onChange={(v) => {
              setSendPhone(v);
              setErrors((e) => ({ ...e, sendPhone: undefined }));
            }}
            error={errors.sendPhone && t('accountRequired')}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid="add-chat-account"
          />
          <TextInput
            label={t('number')}
            placeholder={t('numberPlaceholder')}
            value={receiverPhone}
            onChange={(e) => {
              setReceiverPhone(e.currentTarget.value);
              setErrors((x) => ({ ...x, receiverPhone: undefined }));
              setServer({});
            }}
            error={numberError}
            data-autofocus
            data-testid="add-chat-number"
          />
          {TemplatePicker && sendPhone ? (
            <Input.Wrapper
              label={t('greeting')}
              description={t('templateHint')}
              error={errors.template && t('templateRequired')}
              data-testid="add-chat-template"
            >
              <Stack mt={4}>
                <TemplatePicker key={sendPhone} sendPhone={sendPhone} onChange={setTemplate} />
              </Stack>
            </Input.Wrapper>
          ) : (
            <Textarea
              label={t('greeting')}
              placeholder={t('greetingPlaceholder')}
              autosize
              minRows={2}
              maxRows={6}
              maxLength={MESSAGE_TEXT_MAX}
              value={greeting}
              onChange={(e) => {
                setGreeting(e.currentTarget.value);
                setErrors((x) => ({ ...x, greeting: undefined }));
              }}
              error={errors.greeting && t('greetingRequired')}
              data-testid="add-chat-greeting"
            />
          )}
          {server.form && (
            <Alert color="red" variant="light" data-testid="add-chat-error">
              {server.form}
            </Alert>
          )}
          <Group justify="flex-end">
            <ThrottledButton type="submit" loading={busy} data-testid="add-chat-submit">
              {t('submit')}
            </ThrottledButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
