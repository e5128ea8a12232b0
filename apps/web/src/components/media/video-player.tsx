import { Stack, Text } from '@mantine/core';
import type { Media } from '@parley/protocol';
import { useMediaClock } from './use-media-clock';
import { formatDuration } from '../../lib/media-rules';
import type { PlayableSource } from './audio-player';
import classes from './message-media.module.css';

interface Props {
  media: PlayableSource & Partial<Pick<Media, 'thumb_url'>>;
  onError: () => void;
}

/** A video with the browser's controls, and its length under it before it is played. */
export function VideoPlayer({ media, onError }: Props) {
  const clock = useMediaClock(media.duration_ms);
  return (
    <Stack gap={2}>
      <video
        controls
        preload="metadata"
        src={media.url}
        poster={media.thumb_url ?? undefined}
        onError={onError}
        onDurationChange={clock.handlers.onDurationChange}
        className={classes.video}
        data-testid="message-video"
      />
      {clock.durationMs !== null && (
        <Text size="xs" c="dimmed" data-testid="media-duration">
          {formatDuration(clock.durationMs)}
        </Text>
      )}
    </Stack>
  );
}
