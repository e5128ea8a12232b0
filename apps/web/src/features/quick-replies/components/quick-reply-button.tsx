import { useState } from 'react';
import { ActionIcon } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { lazyComponent } from '../../../lib/lazy-component';

const QuickReplyPanel = lazyComponent(
  async () => (await import('./quick-reply-panel')).QuickReplyPanel,
);

interface Props {
  disabled?: boolean;
  /** Puts a text material into the composer at its caret. */
  onInsert: (text: string) => void;
}

/** The composer's button that opens the quick reply and material panel. */
export function QuickReplyButton({ disabled, onInsert }: Props) {
  const { t } = useTranslation('quickReplies');
  const [opened, setOpened] = useState(false);
  return (
    <>
      <ActionIcon
        variant="subtle"
        size="lg"
        disabled={disabled}
        onClick={() => setOpened(true)}
        aria-label={t('open')}
        title={t('open')}
        data-testid="quick-reply-open"
      >
        <svg width="18" height="18" viewBox="0 0 24 24" fill="none" aria-hidden>
          <path
            d="M13 2L4 14h7l-1 8 9-12h-7l1-8z"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinejoin="round"
          />
        </svg>
      </ActionIcon>
      {opened && (
        <QuickReplyPanel
          onClose={() => setOpened(false)}
          onInsert={(text) => {
            setOpened(false);
            onInsert(text);
          }}
        />
      )}
    </>
  );
}
