import { useState } from 'react';
import { Anchor, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SandboxEntry } from '@parley/protocol';
import { AudioPlayer } from '../../../components/media/audio-player';
import { FileIcon } from '../../../components/media/media-icons';
import { VideoPlayer } from '../../../components/media/video-player';
import { formatSize } from '../../../lib/media-rules';

/**
 * An entry's media as the customer gets it: an image inline; audio and video playable (with
 * their length); every other kind, and those too, a download under the file's name.
 */
export function SandboxMedia({ entry, url }: { entry: SandboxEntry; url: string }) {
  const { t, i18n } = useTranslation('sandbox');
  const [failed, setFailed] = useState(false);
  if (entry.type === 'image') {
    return (
      <img
        src={url}
        alt={entry.file_name ?? t('image')}
        data-testid="sandbox-image"
        style={{ maxWidth: 240, maxHeight: 240, display: 'block' }}
      />
    );
  }
  const source = { url, duration_ms: entry.duration_ms };
  const name = entry.file_name ?? t(`kind.${entry.type}`);
  return (
    <Stack gap={4}>
      {entry.type === 'audio' && !failed && (
        <AudioPlayer media={source} onError={() => setFailed(true)} />
      )}
      {entry.type === 'video' && !failed && (
        <VideoPlayer media={source} onError={() => setFailed(true)} />
      )}
      <Anchor
        href={url}
        download={entry.file_name ?? true}
        underline="never"
        c="inherit"
        title={t('download', { name })}
        data-testid="sandbox-media-link"
      >
        <Group gap={8} wrap="nowrap">
          <FileIcon width={24} height={24} />
          <Stack gap={0} miw={0}>
            <Text size="sm" fw={600} truncate data-testid="sandbox-file-name">
              {name}
            </Text>
            {entry.size !== null && (
              <Text size="xs" c="dimmed">
                {formatSize(entry.size, i18n.language)}
              </Text>
            )}
          </Stack>
        </Group>
      </Anchor>
    </Stack>
  );
}
