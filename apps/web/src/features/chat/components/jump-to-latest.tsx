import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { clearJump } from '../../../stores/chat-jump.store';

/** Leaves a chat opened at a search hit for its newest messages. */
export function JumpToLatest() {
  const { t } = useTranslation('search');
  return (
    <Button
      size="compact-sm"
      radius="xl"
      variant="filled"
      onClick={clearJump}
      data-testid="chat-jump-latest"
      style={{ position: 'absolute', right: 16, bottom: 12, zIndex: 2 }}
    >
      {t('jumpToLatest')}
    </Button>
  );
}
