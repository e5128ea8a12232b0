import type { ReactNode } from 'react';
import { Menu } from '@mantine/core';
import type { ContextMenuState } from './use-context-menu';

export type { ContextMenuState } from './use-context-menu';

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
