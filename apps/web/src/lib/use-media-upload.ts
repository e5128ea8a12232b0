import { useCallback, useEffect, useRef, useState } from 'react';
import type { Media, MediaKind } from '@parley/protocol';
import { uploadMedia } from './upload';

export interface UploadState {
  /** 0..1 while uploading, null otherwise. */
  progress: number | null;
  media: Media | null;
  failed: boolean;
}

/** One file upload at a time with progress and cancel (a new file cancels the one going). */
export function useMediaUpload(initial: Media | null) {
  const [state, setState] = useState<UploadState>({
    progress: null,
    media: initial,
    failed: false,
  });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async (file: File, kind: MediaKind) => {
    controller.current?.abort();
    const ctrl = new AbortController();
    controller.current = ctrl;
    setState((s) => ({ ...s, progress: 0, failed: false }));
    try {
      const media = await uploadMedia(file, kind, {
        signal: ctrl.signal,
        onProgress: (p) => setState((s) => ({ ...s, progress: p })),
      });
      setState({ progress: null, media, failed: false });
    } catch {
      // Cancelled, or refused (the request layer has shown why).
      if (ctrl.signal.aborted) return;
      setState((s) => ({ ...s, progress: null, failed: true }));
    }
  }, []);

  const cancel = useCallback(() => {
    controller.current?.abort();
    setState((s) => ({ ...s, progress: null }));
  }, []);

  return { ...state, start, cancel };
}
