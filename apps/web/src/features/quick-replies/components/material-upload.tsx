import { Button, FileButton, Group, Image, Input, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { useMediaUpload } from '../../../lib/use-media-upload';

interface Props {
  kind: 'image' | 'audio';
  upload: ReturnType<typeof useMediaUpload>;
  error: string | null;
  onPicked: () => void;
}

/** The upload of an image or audio material, with its progress, cancel and a preview. */
export function MaterialUpload({ kind, upload, error, onPicked }: Props) {
  const { t } = useTranslation('quickReplies');
  const uploading = upload.progress !== null;
  return (
    <Input.Wrapper label={t(`file.${kind}`)} error={error} data-testid="quick-reply-media">
      <Stack gap={6} mt={4}>
        <Group gap="xs">
          <FileButton
            accept={kind === 'image' ? 'image/*' : 'audio/*'}
            onChange={(file) => {
              if (!file) return;
              onPicked();
              void upload.start(file, kind);
            }}
          >
            {(props) => (
              <Button {...props} variant="light" size="xs" data-testid="quick-reply-file">
                {upload.media ? t('replaceFile') : t('chooseFile')}
              </Button>
            )}
          </FileButton>
          {uploading && (
            <Button
              variant="subtle"
              color="gray"
              size="xs"
              onClick={upload.cancel}
              data-testid="quick-reply-upload-cancel"
            >
              {t('cancelUpload')}
            </Button>
          )}
        </Group>
        {uploading && (
          <Progress
            value={Math.round((upload.progress ?? 0) * 100)}
            aria-label={t('uploading')}
            data-testid="quick-reply-upload-progress"
          />
        )}
        {upload.failed && (
          <Text size="xs" c="red" data-testid="quick-reply-upload-failed">
            {t('uploadFailed')}
          </Text>
        )}
        {upload.media && kind === 'image' && (
          <Image
            src={upload.media.thumb_url ?? upload.media.url}
            h={96}
            w="auto"
            fit="contain"
            radius="sm"
            alt={upload.media.file_name}
            data-testid="quick-reply-media-preview"
          />
        )}
        {upload.media && kind === 'audio' && (
          <audio
            controls
            src={upload.media.url}
            style={{ width: '100%' }}
            data-testid="quick-reply-media-preview"
          />
        )}
        {upload.media && (
          <Text size="xs" c="dimmed" truncate>
            {upload.media.file_name}
          </Text>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
