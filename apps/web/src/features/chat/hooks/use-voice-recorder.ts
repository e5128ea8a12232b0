import { useCallback, useEffect, useRef, useState } from 'react';
import { pickVoiceMime, voiceFileName } from '../../../lib/media-rules';

export type RecorderError = 'denied' | 'unavailable';

export interface VoiceNote {
  blob: Blob;
  fileName: string;
  durationMs: number;
}

interface Session {
  recorder: MediaRecorder;
  stream: MediaStream;
  chunks: Blob[];
  startedAt: number;
  /** What to do with the recording when it stops (undefined: throw it away). */
  onDone?: (note: VoiceNote) => void;
}

export const canRecord = () =>
  typeof window !== 'undefined' &&
  typeof window.MediaRecorder !== 'undefined' &&
  !!navigator.mediaDevices?.getUserMedia;

/**
 * Records a voice note with the microphone (MediaRecorder, Opus in WebM or Ogg): start, then
 * cancel or stop-and-send; the elapsed time ticks while recording.
 */
export function useVoiceRecorder(onError: (error: RecorderError) => void) {
  const session = useRef<Session | null>(null);
  const [phase, setPhase] = useState<'idle' | 'starting' | 'recording'>('idle');
  const [elapsedMs, setElapsedMs] = useState(0);

  const finish = useCallback(() => {
    const s = session.current;
    session.current = null;
    s?.stream.getTracks().forEach((track) => track.stop());
    setPhase('idle');
    setElapsedMs(0);
  }, []);

  const start = useCallback(async () => {
    if (session.current || !canRecord()) return;
    setPhase('starting');
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (err) {
      setPhase('idle');
      const name = err instanceof DOMException ? err.name : '';
      onError(name === 'NotAllowedError' || name === 'SecurityError' ? 'denied' : 'unavailable');
      return;
    }
    const mimeType = pickVoiceMime((m) => MediaRecorder.isTypeSupported(m));
    const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    const s: Session = { recorder, stream, chunks: [], startedAt: Date.now() };
    session.current = s;
    recorder.ondataavailable = (e) => {
      if (e.data.size > 0) s.chunks.push(e.data);
    };
    recorder.onstop = () => {
      const durationMs = Date.now() - s.startedAt;
      const type = recorder.mimeType || mimeType || 'audio/webm';
      if (s.onDone && s.chunks.length > 0) {
        s.onDone({
          blob: new Blob(s.chunks, { type }),
          fileName: voiceFileName(type, new Date(s.startedAt)),
          durationMs,
        });
      }
    };
    recorder.start(250);
    setPhase('recording');
  }, [onError]);

  const stop = useCallback(
    (onDone?: (note: VoiceNote) => void) => {
      const s = session.current;
      if (!s) return;
      s.onDone = onDone;
      if (s.recorder.state !== 'inactive') s.recorder.stop();
      finish();
    },
    [finish],
  );

  // The elapsed time while recording.
  useEffect(() => {
    if (phase !== 'recording') return;
    const timer = setInterval(() => {
      const s = session.current;
      if (s) setElapsedMs(Date.now() - s.startedAt);
    }, 250);
    return () => clearInterval(timer);
  }, [phase]);

  // Leaving the chat throws an unfinished recording away and frees the microphone.
  useEffect(() => () => stop(), [stop]);

  return {
    phase,
    elapsedMs,
    start: () => void start(),
    cancel: () => stop(),
    stopAndSend: (onDone: (note: VoiceNote) => void) => stop(onDone),
  };
}
