import { useState } from 'react';
import { Alert, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionItem, WhatsappTemplate } from '@parley/protocol';
import { ThrottledButton } from '../../../components/throttled-button';
import { newClientMsgId } from '../../../lib/client-msg-id';
import { useSendTemplate } from '../hooks/use-send-template';
import { useTemplateForm } from '../hooks/use-template-form';
import { templateRefusalText } from '../template-refusal';
import { TemplatePicker } from './template-picker';

/**
 * In place of the composer once a WhatsApp chat's window has closed (WhatsApp then takes only
 * an approved template): choose one, fill its variables, send.
 */
export function TemplateComposer({
  user,
  templates,
  disabled,
}: {
  user: SessionItem;
  templates: readonly WhatsappTemplate[];
  disabled: boolean;
}) {
  const { t } = useTranslation('chat');
  const form = useTemplateForm(templates);
  const sendTemplate = useSendTemplate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // One id per filled form: a retry after a lost answer is the same message.
  const [clientMsgId, setClientMsgId] = useState(newClientMsgId);

  const submit = async () => {
    const send = form.send();
    if (!send) return;
    setBusy(true);
    setError(null);
    try {
      await sendTemplate(user, send, clientMsgId);
      form.select(null);
      setClientMsgId(newClientMsgId());
    } catch (err) {
      setError(templateRefusalText(err, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    // At most half the pane: the conversation stays in view while the variables are filled.
    <Stack
      gap="xs"
      px="md"
      py="xs"
      style={{ maxHeight: '50%', overflowY: 'auto' }}
      data-testid="template-composer"
    >
      <TemplatePicker templates={templates} form={form} />
      {error && (
        <Alert color="red" variant="light" py={6} data-testid="template-error">
          {error}
        </Alert>
      )}
      {templates.length > 0 && (
        <Group justify="flex-end">
          <ThrottledButton
            size="xs"
            disabled={disabled || !form.complete}
            loading={busy}
            onClick={() => void submit()}
            data-testid="template-send"
          >
            {t('whatsapp.sendTemplate')}
          </ThrottledButton>
        </Group>
      )}
    </Stack>
  );
}
