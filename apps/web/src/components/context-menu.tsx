import { useCallback, useState, type MouseEvent, type ReactNode } from 'react';
import { Menu } from '@mantine/core';

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
  const close = useCallback(() => setState(null), []);
  return { state, open, close };
}

interface Props<T> {
  state: ContextMenuState<T> | null;
  onClose: () => void;
  testId: string;
  children: ReactNode;
}

/**
 * A Mantine menu anchored at a point instead of a button, so a list renders one menu rather
 * than one per row (rows are virtualised). Keyboard navigation, Escape and outside clicks are
 * Mantine's.
 */
export function ContextMenu<T>({ state, onClose, testId, children }: Props<T>) {
  if (!state) return null;
  return (
    <Menu
      // A new position is a new menu: remount so it is placed at the new point.
      key={`${state.x},${state.y}`}
      opened
      onChange={(opened) => {
        if (!opened) onClose();
      }}
      position="bottom-start"
      offset={2}
      withinPortal
      returnFocus={false}
    >
      <Menu.Target>
        <span
          aria-hidden
          style={{ position: 'fixed', left: state.x, top: state.y, width: 1, height: 1 }}
        />
      </Menu.Target>
      <Menu.Dropdown data-testid={testId}>{children}</Menu.Dropdown>
    </Menu>
  );
}
