import { Button, FileButton, Group, Image, Input, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { MediaKind } from '@parley/protocol';
import type { useMediaUpload } from '../../../lib/use-media-upload';

/** The media kind of a picked file, by its declared type (the server checks the bytes). */
export function kindOfFile(file: File): MediaKind {
  const top = file.type.split('/')[0];
  return top === 'image' || top === 'audio' || top === 'video' ? top : 'file';
}

interface Props {
  upload: ReturnType<typeof useMediaUpload>;
  error: string | null;
  /** A file was picked: it is uploaded as this kind (the batch's message type). */
  onPicked: (kind: MediaKind) => void;
}

/** Attach one file to a batch: uploaded at once, with progress and cancel. */
export function BatchMediaPicker({ upload, error, onPicked }: Props) {
  const { t } = useTranslation('batch');
  const uploading = upload.progress !== null;
  const media = upload.media;
  return (
    <Input.Wrapper label={t('attachment')} error={error}>
      <Stack gap={6} mt={4}>
        <Group gap="xs">
          <FileButton
            onChange={(file) => {
              if (!file) return;
              const kind = kindOfFile(file);
              onPicked(kind);
              void upload.start(file, kind);
            }}
          >
            {(props) => (
              <Button {...props} variant="light" size="xs" data-testid="batch-file">
                {media ? t('replaceFile') : t('chooseFile')}
              </Button>
            )}
          </FileButton>
          {uploading && (
            <Button variant="subtle" color="gray" size="xs" onClick={upload.cancel}>
              {t('cancelUpload')}
            </Button>
          )}
        </Group>
        {uploading && (
          <Progress
            value={Math.round((upload.progress ?? 0) * 100)}
            aria-label={t('uploading')}
            data-testid="batch-upload-progress"
          />
        )}
        {media?.thumb_url && (
          <Image src={media.thumb_url} h={80} w="auto" fit="contain" radius="sm" alt="" />
        )}
        {media && (
          <Text size="xs" c="dimmed" truncate data-testid="batch-file-name">
            {media.file_name}
          </Text>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
