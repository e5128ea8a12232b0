import { useCallback, type MouseEvent } from 'react';
import { useContextMenu } from '../../../components/use-context-menu';
import type { DisplayMessage } from '../../messages/api/merge-messages';

/**
 * The message list's context menu. Its handler goes on each row; it opens only when the
 * right-click is on the bubble itself (the empty part of a row keeps the browser's menu).
 */
export function useMessageContextMenu() {
  const { state, open, close } = useContextMenu<DisplayMessage>();
  const onContextMenu = useCallback(
    (m: DisplayMessage, e: MouseEvent<HTMLElement>) => {
      const target = e.target instanceof Element ? e.target : null;
      if (target?.closest('[data-testid="message-item"]')) open(m, e);
    },
    [open],
  );
  return { state, close, onContextMenu };
}
