/** Runs `work` when the main thread is idle (at the latest after `timeout` ms); returns what cancels it. */
export function whenIdle(work: () => void, timeout = 2000): () => void {
  if ('requestIdleCallback' in window) {
    const id = window.requestIdleCallback(work, { timeout });
    return () => window.cancelIdleCallback(id);
  }
  const timer = setTimeout(work, 0);
  return () => clearTimeout(timer);
}
