import { useEffect } from 'react';
import { prepareTimeFormats } from '../../lib/format-time';
import { whenIdle } from '../../lib/when-idle';
import { preloadOpenChat } from './chat/lazy-open-chat';

/**
 * Work the console's first screen and first chat would otherwise do inside a click or a render
 * (issue 25, no main-thread task over 50 ms), done while the thread is idle: the time
 * formatters while the first rows load, and the open chat's code once they show (the operator
 * opens a chat next; fetched in the click, it made the first switch the slowest).
 */
export function useConsoleWarmUp(hasRows: boolean, locale: string): void {
  useEffect(() => whenIdle(() => prepareTimeFormats(locale)), [locale]);
  useEffect(() => (hasRows ? whenIdle(preloadOpenChat) : undefined), [hasRows]);
}
