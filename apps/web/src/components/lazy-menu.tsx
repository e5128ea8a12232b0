import {
  cloneElement,
  lazy,
  Suspense,
  useState,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import type { MenuItemProps } from '@mantine/core';
import type { FloatingPosition } from '@mantine/core';
import { retrying } from '../lib/retrying-import';

export type LazyMenuItem = MenuItemProps & {
  key: string;
  label: ReactNode;
  onClick: () => void;
  /** data-* and lang attributes of the UI contract. */
  attrs?: Record<string, string | undefined>;
};

interface TargetProps {
  onClick?: (e: MouseEvent<HTMLElement>) => void;
  onPointerEnter?: () => void;
  onFocus?: () => void;
}

export interface LazyMenuProps {
  /** The button that opens the menu (it must accept a ref and these handlers). */
  target: ReactElement<TargetProps>;
  items: LazyMenuItem[];
  position?: FloatingPosition;
}

const loadMenu = retrying(() => import('./lazy-menu-dropdown'));
const MenuDropdown = lazy(async () => ({ default: (await loadMenu()).MenuDropdown }));

/**
 * A Mantine menu whose code (Menu, its positioning library: ~30 KB gzip with its styles) is
 * fetched when the pointer or the focus reaches its button, and shown at the first click.
 * Until that click the button stays the same element: swapping it under the pointer would
 * lose the click.
 */
export function LazyMenu({ target, items, position }: LazyMenuProps) {
  const [wanted, setWanted] = useState(false);
  const [opened, setOpened] = useState(false);
  const plain = cloneElement(target, {
    onPointerEnter: () => void loadMenu(),
    onFocus: () => void loadMenu(),
    onClick: () => {
      setWanted(true);
      setOpened((o) => !o);
    },
  });
  if (!wanted) return plain;
  return (
    <Suspense fallback={plain}>
      <MenuDropdown
        target={target}
        items={items}
        position={position}
        opened={opened}
        onChange={setOpened}
      />
    </Suspense>
  );
}
