import { useState, type ReactNode } from 'react';
import { Avatar, Button } from '@mantine/core';
import { lazyComponent } from '../../../lib/lazy-component';
import { readItem } from '../../../lib/storage';

const OperatorInfoDialog = lazyComponent(
  async () => (await import('./operator-info-dialog')).OperatorInfoDialog,
);

const TRUNCATE = {
  display: 'block',
  minWidth: 0,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
} as const;

/**
 * The header button with the seat's name; opens the operator information dialog. `settings`:
 * other features' settings shown in it, handed in by the console (the new-message sound).
 */
export function OperatorButton({ settings }: { settings?: ReactNode }) {
  const [opened, setOpened] = useState(false);
  const info = readItem('userInfo');
  const name = info?.nickname || info?.account || '';
  return (
    <>
      <Button
        variant="subtle"
        size="compact-md"
        leftSection={<Avatar size={24} radius="xl" color="blue" name={name} />}
        onClick={() => setOpened(true)}
        maw="100%"
        data-testid="user-menu"
      >
        {/* A long name ends in an ellipsis in a narrow header; the whole name on hover. */}
        <span title={name} style={TRUNCATE}>
          {name}
        </span>
      </Button>
      {opened && <OperatorInfoDialog settings={settings} onClose={() => setOpened(false)} />}
    </>
  );
}
