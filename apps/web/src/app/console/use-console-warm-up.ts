import { useEffect } from 'react';
import { prepareTimeFormats } from '../../lib/format-time';
import { whenIdle } from '../../lib/when-idle';
import { preloadOpenChat } from './chat/lazy-open-chat';

/** Runs `work` once the frame being drawn has been painted; returns what cancels it. */
function afterPaint(work: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A task queued from a frame's callback runs after that frame is painted.
  const frame = requestAnimationFrame(() => (timer = setTimeout(work, 0)));
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/**
 * Work the console's first screen and first chat would otherwise do inside a click or a render
 * (issue 25, no main-thread task over 50 ms), done while the thread is idle: the time
 * formatters while the first rows load, and the open chat's code once they are painted (the
 * operator opens a chat next; fetched in the click, it made the first switch the slowest).
 * Not before: its ~52 KB would share the link with the first screen's code and data (issue 37,
 * the first load's 300 KB by the first row).
 */
export function useConsoleWarmUp(rowsShown: boolean, locale: string): void {
  useEffect(() => whenIdle(() => prepareTimeFormats(locale)), [locale]);
  useEffect(() => {
    if (!rowsShown) return undefined;
    let cancelIdle: (() => void) | undefined;
    const cancelPaint = afterPaint(() => (cancelIdle = whenIdle(preloadOpenChat)));
    return () => {
      cancelPaint();
      cancelIdle?.();
    };
  }, [rowsShown]);
}
