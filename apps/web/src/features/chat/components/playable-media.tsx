import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Media } from '@parley/protocol';
import { AudioPlayer } from '../../../components/media/audio-player';
import { FileMedia } from './file-media';
import { VideoPlayer } from '../../../components/media/video-player';

interface Props {
  kind: 'audio' | 'video';
  media: Media;
}

/**
 * Audio plays in our player (one clock); video inline with the browser's controls, its length
 * under it before it is played. When the browser cannot play them, the spec's "Audio playback
 * failed" (or its video counterpart) shows, and the file can still be downloaded.
 */
export function PlayableMedia({ kind, media }: Props) {
  const { t } = useTranslation('media');
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <Stack gap={4}>
        <Text size="sm" c="red" data-testid="media-error">
          {kind === 'audio' ? t('messages:audioPlaybackFailed') : t('videoPlaybackFailed')}
        </Text>
        <FileMedia media={media} />
      </Stack>
    );
  }
  if (kind === 'audio') return <AudioPlayer media={media} onError={() => setFailed(true)} />;
  return <VideoPlayer media={media} onError={() => setFailed(true)} />;
}
