import '@mantine/core/styles/Menu.layer.css';
import { Menu } from '@mantine/core';
import type { LazyMenuProps } from './lazy-menu';

interface Props extends LazyMenuProps {
  opened: boolean;
  onChange: (opened: boolean) => void;
}

/** LazyMenu once its code is here: Mantine's Menu, opened and closed by LazyMenu's state. */
export function MenuDropdown({ target, items, position, opened, onChange }: Props) {
  return (
    <Menu position={position} withinPortal opened={opened} onChange={onChange}>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        {items.map(({ key, label, attrs, ...item }) => (
          <Menu.Item key={key} {...item} {...attrs}>
            {label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
