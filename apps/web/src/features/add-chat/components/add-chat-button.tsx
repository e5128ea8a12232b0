import { useState } from 'react';
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AddChatDialog } from './add-chat-dialog';

/** Opens the add-chat dialog (above the user list). */
export function AddChatButton() {
  const { t } = useTranslation('add-chat');
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        size="compact-xs"
        variant="light"
        onClick={() => setOpened(true)}
        data-testid="add-chat-open"
      >
        {t('open')}
      </Button>
      {opened && <AddChatDialog onClose={() => setOpened(false)} />}
    </>
  );
}
