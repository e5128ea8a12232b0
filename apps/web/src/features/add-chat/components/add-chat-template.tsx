import { Input, Loader, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WhatsappTemplate } from '@parley/protocol';
import type { TemplateForm } from '../../whatsapp/hooks/use-template-form';
import { TemplatePicker } from '../../whatsapp/components/template-picker';

/** The add-chat dialog's greeting on a WhatsApp account: one of its approved templates. */
export function AddChatTemplate({
  templates,
  form,
  loading,
  error,
}: {
  templates: readonly WhatsappTemplate[];
  form: TemplateForm;
  loading: boolean;
  error?: string | false | undefined;
}) {
  const { t } = useTranslation('add-chat');
  return (
    <Input.Wrapper
      label={t('greeting')}
      description={t('templateHint')}
      error={error || undefined}
      data-testid="add-chat-template"
    >
      <Stack mt={4}>
        {loading ? <Loader size="xs" /> : <TemplatePicker templates={templates} form={form} />}
      </Stack>
    </Input.Wrapper>
  );
}
