import {
  useCallback,
  useMemo,
  useRef,
  type MouseEvent,
  type PointerEvent,
  type TouchEvent,
} from 'react';

/** How long a finger rests on an item to open its menu, and how far it may drift meanwhile. */
const PRESS_MS = 500;
const SLOP_PX = 10;

export interface LongPress<T> {
  onPointerDown: (item: T, e: PointerEvent<HTMLElement>) => void;
  onPointerMove: (e: PointerEvent<HTMLElement>) => void;
  onPointerEnd: () => void;
  /** The finger lifts after a long press: no tap's mouse events (they would close the menu). */
  onTouchEnd: (e: TouchEvent<HTMLElement>) => void;
  /** Swallows the click that may follow a long press, so it does not also open the item. */
  onClickCapture: (e: MouseEvent<HTMLElement>) => void;
}

/**
 * A long press of a finger or pen on a list's item (one timer for the whole list: one finger
 * presses at a time). Touch screens have no right button, and iOS never sends `contextmenu`:
 * this is how a phone opens the menus a desktop opens with a right-click. A mouse keeps its
 * right-click; a finger that moves (a scroll) cancels. `onLongPress` should be stable.
 */
export function useLongPress<T>(
  onLongPress: (item: T, x: number, y: number) => void,
): LongPress<T> {
  const timer = useRef<number | undefined>(undefined);
  const start = useRef<{ x: number; y: number } | null>(null);
  const fired = useRef(false);

  const onPointerEnd = useCallback(() => {
    window.clearTimeout(timer.current);
    start.current = null;
  }, []);

  return useMemo(
    () => ({
      onPointerDown(item: T, e: PointerEvent<HTMLElement>) {
        onPointerEnd();
        fired.current = false;
        if (e.pointerType === 'mouse' || !e.isPrimary) return;
        const point = { x: e.clientX, y: e.clientY };
        start.current = point;
        timer.current = window.setTimeout(() => {
          start.current = null;
          fired.current = true;
          onLongPress(item, point.x, point.y);
        }, PRESS_MS);
      },
      onPointerMove(e: PointerEvent<HTMLElement>) {
        const from = start.current;
        if (from && Math.hypot(e.clientX - from.x, e.clientY - from.y) > SLOP_PX) onPointerEnd();
      },
      onPointerEnd,
      onTouchEnd(e: TouchEvent<HTMLElement>) {
        if (fired.current && e.cancelable) e.preventDefault();
      },
      onClickCapture(e: MouseEvent<HTMLElement>) {
        if (!fired.current) return;
        fired.current = false;
        e.preventDefault();
        e.stopPropagation();
      },
    }),
    [onPointerEnd, onLongPress],
  );
}
