import { Badge, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WhatsappTemplate } from '@parley/protocol';
import { fill, type TemplateValues } from '../template-values';

/** The template as the customer will read it, its placeholders filled as typed so far. */
export function TemplatePreview({
  template,
  values,
}: {
  template: WhatsappTemplate;
  values: TemplateValues;
}) {
  const { t } = useTranslation('chat');
  return (
    <Paper
      withBorder
      p="xs"
      radius="sm"
      data-testid="template-preview"
      aria-label={t('whatsapp.preview')}
    >
      {template.header && (
        <Text size="sm" fw={700}>
          {fill(template.header.text, values.header)}
        </Text>
      )}
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
        {fill(template.body, values.body)}
      </Text>
      {template.footer && (
        <Text size="xs" c="dimmed">
          {template.footer}
        </Text>
      )}
      {template.buttons.length > 0 && (
        <Group gap={4} mt={4}>
          {template.buttons.map((b, i) => (
            <Badge
              key={i}
              variant="light"
              title={b.url ? fill(b.url, [values.buttons[i] ?? '']) : undefined}
            >
              {b.text}
            </Badge>
          ))}
        </Group>
      )}
    </Paper>
  );
}
