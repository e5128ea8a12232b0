import { useCallback, useEffect, useRef } from 'react';
import {
  TEAM_TYPING_EVERY_MS,
  TEAM_VIEWING_EVERY_MS,
  type TeamPresenceState,
} from '@parley/protocol';
import { callApi } from '../../../lib/api-client';

function say(sessionId: number, state: TeamPresenceState): void {
  // A lost word is said again by the next one, or forgotten by its time to live.
  void callApi('/v1/seat/team/presence', { session_id: sessionId, state }, { notify: false }).catch(
    () => undefined,
  );
}

/**
 * Tells the chat's other members that this console shows it: "viewing" now and again every
 * TEAM_VIEWING_EVERY_MS (while the tab is visible), "left" when it no longer shows it or the tab
 * is hidden or closed. The `typing` it returns is called on each keystroke and says "typing"
 * at most every TEAM_TYPING_EVERY_MS (the others forget it a few seconds after the last).
 */
export function usePresenceReporter(sessionId: number): () => void {
  const lastTyping = useRef(0);
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | null = null;
    const start = () => {
      if (timer) return;
      say(sessionId, 'viewing');
      timer = setInterval(() => say(sessionId, 'viewing'), TEAM_VIEWING_EVERY_MS);
    };
    const stop = () => {
      if (!timer) return;
      clearInterval(timer);
      timer = null;
      lastTyping.current = 0;
      say(sessionId, 'left');
    };
    const onVisibility = () => (document.visibilityState === 'hidden' ? stop() : start());
    if (document.visibilityState !== 'hidden') start();
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', stop);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', stop);
      stop();
    };
  }, [sessionId]);
  return useCallback(() => {
    const now = Date.now();
    if (now - lastTyping.current < TEAM_TYPING_EVERY_MS) return;
    lastTyping.current = now;
    say(sessionId, 'typing');
  }, [sessionId]);
}
