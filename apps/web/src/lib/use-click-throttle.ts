import { useCallback, useEffect, useRef, useState } from 'react';
import { CLICK_THROTTLE_MS } from '@parley/protocol';

/** Wraps a handler so that it disables itself for CLICK_THROTTLE_MS after each call. */
export function useClickThrottle<A extends unknown[]>(
  handler: ((...args: A) => void) | undefined,
  ms = CLICK_THROTTLE_MS,
): [(...args: A) => void, boolean] {
  const [blocked, setBlocked] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const run = useCallback(
    (...args: A) => {
      if (timer.current !== undefined) return;
      // Disable on the next task: a submit button disabled during its own click would
      // cancel the form submission that the click triggers.
      setTimeout(() => setBlocked(true), 0);
      timer.current = setTimeout(() => {
        timer.current = undefined;
        setBlocked(false);
      }, ms);
      handler?.(...args);
    },
    [handler, ms],
  );
  return [run, blocked];
}
