import { useState, type SyntheticEvent } from 'react';

type MediaEvent = SyntheticEvent<HTMLMediaElement>;

/** Seconds as milliseconds, or null when the browser does not know (NaN, Infinity). */
function knownMs(seconds: number): number | null {
  return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : null;
}

/**
 * The length and position of an audio or video element. The length is the one the server
 * recorded (a voice note's), else what the browser reads from the file's metadata before
 * anything is played (`preload="metadata"`). Spread `handlers` on the element.
 */
export function useMediaClock(recordedMs: number | null) {
  const [metadataMs, setMetadataMs] = useState<number | null>(null);
  const [positionMs, setPositionMs] = useState(0);
  const [playing, setPlaying] = useState(false);
  const durationMs = recordedMs ?? metadataMs;
  return {
    durationMs,
    positionMs,
    playing,
    handlers: {
      // Also fires later for files whose length is only known once read (a recorded WebM).
      onDurationChange: (e: MediaEvent) => setMetadataMs(knownMs(e.currentTarget.duration)),
      onTimeUpdate: (e: MediaEvent) => setPositionMs(e.currentTarget.currentTime * 1000),
      onPlay: () => setPlaying(true),
      onPause: () => setPlaying(false),
      onEnded: (e: MediaEvent) => {
        setPlaying(false);
        e.currentTarget.currentTime = 0;
        setPositionMs(0);
      },
    },
  };
}
