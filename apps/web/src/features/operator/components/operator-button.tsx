import { useState } from 'react';
import { Avatar, Button } from '@mantine/core';
import { readItem } from '../../../lib/storage';
import { OperatorInfoDialog } from './operator-info-dialog';

/** The header button with the seat's name; opens the operator information dialog. */
export function OperatorButton() {
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
        data-testid="user-menu"
      >
        {name}
      </Button>
      {opened && <OperatorInfoDialog onClose={() => setOpened(false)} />}
    </>
  );
}
