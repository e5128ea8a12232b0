import { useCallback, type MouseEvent, type PointerEvent } from 'react';
import { useContextMenu } from '../../../components/use-context-menu';
import { useLongPress } from '../../../components/use-long-press';
import type { DisplayMessage } from '../../messages/api/merge-messages';

const onBubble = (e: { target: EventTarget }) =>
  e.target instanceof Element && e.target.closest('[data-testid="message-item"]') !== null;

/**
 * The message list's context menu. Its handlers go on each row; it opens only when the
 * right-click (or, on a touch screen, the long press) is on the bubble itself (the empty part
 * of a row keeps the browser's menu).
 */
export function useMessageContextMenu() {
  const { state, open, openAt, close } = useContextMenu<DisplayMessage>();
  const onContextMenu = useCallback(
    (m: DisplayMessage, e: MouseEvent<HTMLElement>) => {
      if (onBubble(e)) open(m, e);
    },
    [open],
  );
  const press = useLongPress(openAt);
  const pressDown = press.onPointerDown;
  const onPointerDown = useCallback(
    (m: DisplayMessage, e: PointerEvent<HTMLElement>) => {
      if (onBubble(e)) pressDown(m, e);
    },
    [pressDown],
  );
  return { state, close, onContextMenu, press: { ...press, onPointerDown } };
}
