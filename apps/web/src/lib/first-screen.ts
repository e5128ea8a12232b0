/**
 * The moment the console's first screen is up (its first rows in the DOM, or its list shown
 * empty). What the first screen does not need waits for it, so it never shares the link with
 * what the first row needs (issue 37: what has arrived by the first row, at most 300 KB).
 */
let shown = false;
const waiting = new Set<() => void>();

export function markFirstScreenShown(): void {
  if (shown) return;
  shown = true;
  for (const run of [...waiting]) run();
  waiting.clear();
}

/**
 * Runs `work` once the first screen is up, or after `fallbackMs` on a screen that never marks
 * it (the address book, a list that failed). Returns what cancels it.
 */
export function afterFirstScreen(work: () => void, fallbackMs = 2_000): () => void {
  if (shown) {
    work();
    return () => undefined;
  }
  const run = () => {
    clearTimeout(timer);
    waiting.delete(run);
    work();
  };
  const timer = setTimeout(run, fallbackMs);
  waiting.add(run);
  return () => {
    clearTimeout(timer);
    waiting.delete(run);
  };
}
