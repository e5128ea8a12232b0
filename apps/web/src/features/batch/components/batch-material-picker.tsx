import { Image, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { QuickReply } from '@parley/protocol';
import { quickReplyListQuery } from '../../quick-replies/api/quick-reply-queries';

interface Props {
  value: QuickReply | null;
  onChange: (item: QuickReply | null) => void;
  error: string | null;
}

/** Picks one of the seat's materials (text, image or audio) as the batch's message. */
export function BatchMaterialPicker({ value, onChange, error }: Props) {
  const { t } = useTranslation('batch');
  const { t: tq } = useTranslation('quickReplies');
  const list = useQuery(quickReplyListQuery()).data ?? [];
  const kinds = ['text', 'image', 'audio'] as const;
  const data = kinds
    .map((kind) => ({
      group: tq(`kind.${kind}`),
      items: list
        .filter((q) => q.kind === kind)
        .map((q) => ({ value: String(q.id), label: q.name })),
    }))
    .filter((g) => g.items.length > 0);

  return (
    <Stack gap={6}>
      <Select
        label={t('material')}
        placeholder={t('materialPlaceholder')}
        data={data}
        searchable
        nothingFoundMessage={t('noMaterials')}
        value={value ? String(value.id) : null}
        onChange={(id) => onChange(list.find((q) => String(q.id) === id) ?? null)}
        error={error}
        data-testid="batch-material"
      />
      {value && (
        <Stack gap={4} data-testid="batch-material-preview">
          {value.kind === 'image' && value.media && (
            <Image src={value.media.thumb_url ?? value.media.url} h={80} w="auto" fit="contain" />
          )}
          {value.kind === 'audio' && value.media && (
            <audio controls src={value.media.url} style={{ width: '100%' }} />
          )}
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
            {value.content}
          </Text>
        </Stack>
      )}
    </Stack>
  );
}
