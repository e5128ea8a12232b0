import { CloseButton, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { QuickReply } from '@parley/protocol';
import { MicIcon } from '../../../components/media/media-icons';

interface Props {
  item: QuickReply;
  onRemove: () => void;
}

/** An image or audio material waiting in the composer: Send sends it, the cross removes it. */
export function PendingMaterial({ item, onRemove }: Props) {
  const { t } = useTranslation('quickReplies');
  return (
    <Paper
      withBorder
      p={6}
      radius="md"
      maw={420}
      data-testid="composer-attachment"
      data-id={item.id}
      data-kind={item.kind}
    >
      <Group gap={8} wrap="nowrap">
        {item.kind === 'image' && item.media ? (
          <img
            src={item.media.thumb_url ?? item.media.url}
            alt={item.name}
            style={{ width: 40, height: 40, objectFit: 'cover', borderRadius: 6, flexShrink: 0 }}
            data-testid="composer-attachment-thumb"
          />
        ) : (
          <MicIcon width={28} height={28} style={{ flexShrink: 0 }} />
        )}
        <Stack gap={0} miw={0} flex={1}>
          <Text size="sm" fw={600} truncate data-testid="composer-attachment-name">
            {item.name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {t(`kind.${item.kind}`)} · {item.content}
          </Text>
        </Stack>
        <CloseButton
          size="sm"
          onClick={onRemove}
          aria-label={t('removeAttachment', { name: item.name })}
          title={t('removeAttachment', { name: item.name })}
          data-testid="composer-attachment-remove"
        />
      </Group>
    </Paper>
  );
}
