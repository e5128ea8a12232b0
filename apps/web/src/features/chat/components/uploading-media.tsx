import { CloseButton, Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LocalMessage } from '../../messages/local-messages.store';
import { formatDuration, formatSize } from '../../../lib/media-rules';
import { cancelUpload } from '../../messages/outbox/media-uploads';
import { FileIcon, MicIcon, MovieIcon } from '../../../components/media/media-icons';
import classes from '../../../components/media/message-media.module.css';

/** A media message on its way up: a preview, the progress, and cancel. */
export function UploadingMedia({ local }: { local: LocalMessage }) {
  const { t, i18n } = useTranslation('media');
  const upload = local.upload!;
  const percent = Math.round(upload.progress * 100);
  return (
    <Stack gap={6} data-testid="upload" data-upload-state={upload.state}>
      {upload.kind === 'image' && upload.previewUrl ? (
        <img src={upload.previewUrl} alt={upload.fileName} className={classes.thumb} />
      ) : (
        <Group gap={8} wrap="nowrap">
          {upload.kind === 'audio' ? (
            <MicIcon width={28} height={28} />
          ) : upload.kind === 'video' ? (
            <MovieIcon width={28} height={28} />
          ) : (
            <FileIcon width={28} height={28} />
          )}
          <Stack gap={0} miw={0}>
            <Text size="sm" fw={600} truncate>
              {upload.fileName}
            </Text>
            <Text size="xs" c="dimmed">
              {upload.durationMs !== undefined
                ? formatDuration(upload.durationMs)
                : formatSize(upload.file.size, i18n.language)}
            </Text>
          </Stack>
        </Group>
      )}
      {upload.state === 'uploading' && (
        <Group gap={6} wrap="nowrap">
          <Progress
            value={percent}
            flex={1}
            size="sm"
            aria-label={t('uploading', { percent })}
            data-testid="upload-progress"
            data-progress={percent}
          />
          <Text size="xs" c="dimmed" w={36} ta="right">
            {percent}%
          </Text>
          <CloseButton
            size="sm"
            onClick={() => cancelUpload(local)}
            aria-label={t('cancelUpload')}
            data-testid="upload-cancel"
          />
        </Group>
      )}
    </Stack>
  );
}
