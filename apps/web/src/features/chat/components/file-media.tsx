import { Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Media } from '@parley/protocol';
import { formatSize } from '../../../lib/media-rules';
import { FileIcon } from '../../../components/media/media-icons';
import classes from '../../../components/media/message-media.module.css';

/** A file: its name and size; a click downloads it under its original name. */
export function FileMedia({ media }: { media: Media }) {
  const { t, i18n } = useTranslation('media');
  return (
    <a
      href={media.url}
      download={media.file_name}
      className={classes.file}
      title={t('download', { name: media.file_name })}
      data-testid="message-file"
    >
      <Group gap={8} wrap="nowrap">
        <FileIcon width={28} height={28} />
        <Stack gap={0} miw={0}>
          <Text size="sm" fw={600} truncate data-testid="message-file-name">
            {media.file_name}
          </Text>
          <Text size="xs" c="dimmed" data-testid="message-file-size">
            {formatSize(media.size, i18n.language)}
          </Text>
        </Stack>
      </Group>
    </a>
  );
}
