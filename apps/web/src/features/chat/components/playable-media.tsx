import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Media } from '@parley/protocol';
import { formatDuration } from '../media/media-rules';
import { FileMedia } from './file-media';
import classes from './message-media.module.css';

interface Props {
  kind: 'audio' | 'video';
  media: Media;
}

/**
 * Audio and video play inline with the browser's controls. When the browser cannot play
 * them, the spec's "Audio playback failed" (or its video counterpart) shows, and the file can
 * still be downloaded.
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
  const duration =
    media.duration_ms !== null ? (
      <Text size="xs" c="dimmed" data-testid="media-duration">
        {formatDuration(media.duration_ms)}
      </Text>
    ) : null;
  if (kind === 'audio') {
    return (
      <Stack gap={2}>
        <audio
          controls
          preload="metadata"
          src={media.url}
          onError={() => setFailed(true)}
          className={classes.audio}
          data-testid="message-audio"
        />
        {duration}
      </Stack>
    );
  }
  return (
    <Stack gap={2}>
      <video
        controls
        preload="metadata"
        src={media.url}
        poster={media.thumb_url ?? undefined}
        onError={() => setFailed(true)}
        className={classes.video}
        data-testid="message-video"
      />
      {duration}
    </Stack>
  );
}
