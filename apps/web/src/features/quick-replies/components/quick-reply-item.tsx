import { memo } from 'react';
import { Button, Group, Image, Paper, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { QuickReply } from '@parley/protocol';

interface Props {
  item: QuickReply;
  canSend: boolean;
  onInsert: () => void;
  onSend: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** One material: a text one is inserted into the composer by clicking it. */
export const QuickReplyItem = memo(function QuickReplyItem(props: Props) {
  const { t } = useTranslation('quickReplies');
  const { item } = props;
  const text = item.kind === 'text';
  return (
    <Paper
      withBorder
      p="xs"
      mb={6}
      data-testid="quick-reply-item"
      data-id={item.id}
      data-kind={item.kind}
    >
      <UnstyledButton
        w="100%"
        onClick={text && props.canSend ? props.onInsert : undefined}
        disabled={!text || !props.canSend}
        title={text ? t('insert') : undefined}
        data-testid="quick-reply-insert"
      >
        <Text fw={600} size="sm" truncate data-testid="quick-reply-name-text">
          {item.name}
        </Text>
        <Text size="xs" c="dimmed" lineClamp={2} data-testid="quick-reply-content-text">
          {item.content}
        </Text>
      </UnstyledButton>
      {item.kind === 'image' && item.media && (
        <Image
          src={item.media.thumb_url ?? item.media.url}
          alt={item.name}
          h={64}
          w="auto"
          fit="contain"
          mt={4}
          radius="sm"
          data-testid="quick-reply-image"
        />
      )}
      {item.kind === 'audio' && item.media && (
        <audio
          controls
          preload="none"
          src={item.media.url}
          style={{ width: '100%', height: 32, marginTop: 4 }}
          data-testid="quick-reply-audio"
        />
      )}
      <Group gap={4} mt={6} justify="flex-end">
        <Button
          size="compact-xs"
          variant="light"
          disabled={!props.canSend}
          onClick={props.onSend}
          data-testid="quick-reply-send"
        >
          {t('send')}
        </Button>
        <Button
          size="compact-xs"
          variant="subtle"
          onClick={props.onEdit}
          data-testid="quick-reply-edit"
        >
          {t('edit')}
        </Button>
        <Button
          size="compact-xs"
          variant="subtle"
          color="red"
          onClick={props.onDelete}
          data-testid="quick-reply-delete"
        >
          {t('delete')}
        </Button>
      </Group>
    </Paper>
  );
});
