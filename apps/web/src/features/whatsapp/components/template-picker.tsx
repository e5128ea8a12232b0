import { Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WhatsappTemplate } from '@parley/protocol';
import type { TemplateForm } from '../hooks/use-template-form';
import { templateKey } from '../template-values';
import { TemplateFields } from './template-fields';
import { TemplatePreview } from './template-preview';

/** Choose one of the number's approved templates, fill its variables, see what will be sent. */
export function TemplatePicker({
  templates,
  form,
}: {
  templates: readonly WhatsappTemplate[];
  form: TemplateForm;
}) {
  const { t } = useTranslation('chat');
  if (templates.length === 0) {
    return (
      <Text size="xs" c="dimmed" data-testid="template-none">
        {t('whatsapp.noTemplates')}
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      <Select
        size="xs"
        label={t('whatsapp.template')}
        placeholder={t('whatsapp.chooseTemplate')}
        data={templates.map((x) => ({
          value: templateKey(x),
          label: `${x.name} (${x.language})`,
        }))}
        value={form.key}
        onChange={form.select}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        data-testid="template-select"
      />
      {form.template && form.values && (
        <>
          <TemplateFields template={form.template} values={form.values} onChange={form.setValue} />
          <TemplatePreview template={form.template} values={form.values} />
        </>
      )}
    </Stack>
  );
}
