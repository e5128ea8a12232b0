import { useRef } from 'react';
import { ActionIcon, Group, Slider, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Media } from '@parley/protocol';
import { useMediaClock } from './use-media-clock';
import { formatDuration } from '../../lib/media-rules';
import { PauseIcon, PlayIcon } from './media-icons';
import classes from './message-media.module.css';

/** What a player needs of a media: where it is, and its length when recorded. */
export type PlayableSource = Pick<Media, 'url' | 'duration_ms'>;

interface Props {
  media: PlayableSource;
  onError: () => void;
}

/**
 * An audio message (a voice note or a file): play/pause, a position bar and one clock, the
 * time elapsed while it plays and its length otherwise. The browser's own controls would add
 * a second clock.
 */
export function AudioPlayer({ media, onError }: Props) {
  const { t } = useTranslation('media');
  const ref = useRef<HTMLAudioElement>(null);
  const clock = useMediaClock(media.duration_ms);
  const { durationMs, positionMs, playing } = clock;
  const shown = playing ? positionMs : durationMs;

  const toggle = () => {
    const el = ref.current;
    if (!el) return;
    if (el.paused) void el.play().catch(() => undefined);
    else el.pause();
  };
  const seek = (percent: number) => {
    const el = ref.current;
    if (el && durationMs) el.currentTime = (durationMs * percent) / 100_000;
  };

  return (
    <Group gap={8} wrap="nowrap" className={classes.audio} data-testid="audio-player">
      <audio
        ref={ref}
        preload="metadata"
        src={media.url}
        onError={onError}
        {...clock.handlers}
        data-testid="message-audio"
      />
      <ActionIcon
        variant="light"
        radius="xl"
        size="lg"
        onClick={toggle}
        aria-label={playing ? t('pause') : t('play')}
        data-testid="audio-toggle"
        data-playing={playing ? 'true' : 'false'}
      >
        {playing ? <PauseIcon width={16} height={16} /> : <PlayIcon width={16} height={16} />}
      </ActionIcon>
      <Slider
        flex={1}
        size="sm"
        label={null}
        value={durationMs ? Math.min(100, (positionMs / durationMs) * 100) : 0}
        onChange={seek}
        disabled={!durationMs}
        thumbLabel={t('position')}
        data-testid="audio-position"
      />
      <Text size="xs" c="dimmed" ff="monospace" miw={34} ta="right" data-testid="media-duration">
        {shown === null ? '' : formatDuration(shown)}
      </Text>
    </Group>
  );
}
