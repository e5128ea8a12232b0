import { useCallback, useState, type MouseEvent } from 'react';

// A list's context-menu state, apart from the menu (components/context-menu.tsx): the list
// keeps it, and the menu's code is fetched when it first opens.
export interface ContextMenuState<T> {
  item: T;
  x: number;
  y: number;
}

/**
 * Where a context menu opens: at the pointer, or (opened from the keyboard with the Menu key
 * or Shift+F10, which report no pointer position) at the element's top-left corner.
 */
function pointOf(e: MouseEvent<HTMLElement>): { x: number; y: number } {
  if (e.clientX > 0 || e.clientY > 0) return { x: e.clientX, y: e.clientY };
  const rect = e.currentTarget.getBoundingClientRect();
  return { x: rect.left + 8, y: rect.top + 8 };
}

/** One context menu for a whole list: which item it is open for, and where. */
export function useContextMenu<T>() {
  const [state, setState] = useState<ContextMenuState<T> | null>(null);
  const open = useCallback((item: T, e: MouseEvent<HTMLElement>) => {
    e.preventDefault();
    setState({ item, ...pointOf(e) });
  }, []);
  /** Opened at a point without a mouse event (a long press). */
  const openAt = useCallback((item: T, x: number, y: number) => setState({ item, x, y }), []);
  const close = useCallback(() => setState(null), []);
  return { state, open, openAt, close };
}
