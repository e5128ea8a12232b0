import { useState } from 'react';

/**
 * True from the first time `opened` is true on. A dialog whose code is loaded on demand is
 * mounted at its first opening and stays mounted, so it keeps its state and its closing
 * transition while closed.
 */
export function useOpenedOnce(opened: boolean): boolean {
  const [once, setOnce] = useState(opened);
  if (opened && !once) setOnce(true);
  return once || opened;
}
