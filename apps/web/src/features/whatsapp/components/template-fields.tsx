import { SimpleGrid, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WhatsappTemplate } from '@parley/protocol';
import type { TemplatePart } from '../hooks/use-template-form';
import type { TemplateValues } from '../template-values';

interface Props {
  template: WhatsappTemplate;
  values: TemplateValues;
  onChange: (part: TemplatePart, index: number, text: string) => void;
}

/** One field per placeholder: the header's, the body's {{1}}, {{2}}..., each URL button's. */
export function TemplateFields({ template, values, onChange }: Props) {
  const { t } = useTranslation('chat');
  const field = (part: TemplatePart, index: number, label: string, value: string) => (
    <TextInput
      key={`${part}-${index}`}
      size="xs"
      label={label}
      value={value}
      onChange={(e) => onChange(part, index, e.currentTarget.value)}
      data-testid={`template-var-${part}-${index}`}
    />
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing={4}>
      {values.header.map((v, i) =>
        field('header', i, t('whatsapp.headerVariable', { placeholder: `{{${i + 1}}}` }), v),
      )}
      {values.body.map((v, i) =>
        field('body', i, t('whatsapp.bodyVariable', { placeholder: `{{${i + 1}}}` }), v),
      )}
      {Object.entries(values.buttons).map(([i, v]) =>
        field(
          'button',
          Number(i),
          t('whatsapp.buttonVariable', { text: template.buttons[Number(i)]?.text ?? '' }),
          v,
        ),
      )}
    </SimpleGrid>
  );
}
