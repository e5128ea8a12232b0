import { useState } from 'react';
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { lazyComponent } from '../../../lib/lazy-component';
import type { TemplateGreetingOf } from '../template-greeting';

const AddChatDialog = lazyComponent(async () => (await import('./add-chat-dialog')).AddChatDialog);

interface Props {
  /** Above the user list it is `add-chat-open`; an empty state's way out has its own id. */
  testId?: string;
  variant?: 'light' | 'filled';
  /** A channel's template greeting picker (the console hands in its views': app/channels.ts). */
  templateGreeting?: TemplateGreetingOf;
}

/** Opens the add-chat dialog (above the user list, and in the empty states it fits). */
export function AddChatButton({
  testId = 'add-chat-open',
  variant = 'light',
  templateGreeting,
}: Props) {
  const { t } = useTranslation('add-chat');
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        size={variant === 'filled' ? 'sm' : 'compact-xs'}
        variant={variant}
        onClick={() => setOpened(true)}
        data-testid={testId}
      >
        {t('open')}
      </Button>
      {opened && (
        <AddChatDialog onClose={() => setOpened(false)} templateGreeting={templateGreeting} />
      )}
    </>
  );
}
