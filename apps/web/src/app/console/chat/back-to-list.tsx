import { ActionIcon } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LineIcon } from '../../../components/line-icon';
import { selectUser } from '../../../stores/console.store';
import { useConsoleWidth } from '../use-console-width';

/** On a phone the chat is a screen of its own: this returns to the list (as back does). */
export function BackToList({ onBack = () => selectUser(null) }: { onBack?: () => void }) {
  const { t } = useTranslation('chat');
  if (useConsoleWidth() !== 'phone') return null;
  return (
    <ActionIcon
      variant="subtle"
      size="lg"
      onClick={onBack}
      aria-label={t('backToList')}
      title={t('backToList')}
      data-testid="chat-back"
      style={{ flexShrink: 0 }}
    >
      <LineIcon size={20}>
        <path d="M15 18l-6-6 6-6" />
      </LineIcon>
    </ActionIcon>
  );
}
