import { useState } from 'react';
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useWindowEvent } from '@mantine/hooks';
import { lazyDialog } from '../../../lib/lazy-component';
import { dialogOpen, isTyping } from '../../../lib/keyboard';

const MessageSearchDialog = lazyDialog(
  async () => (await import('./message-search-dialog')).MessageSearchDialog,
);

/** The header's entry to message search; the dialog keeps its word and results while closed.
 * `compact`: the icon alone (a narrow header), named by its label for screen readers. */
export function MessageSearchButton({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation('search');
  const [opened, setOpened] = useState(false);
  // Ctrl/⌘+K opens search (not while typing in a field, nor over another dialog).
  useWindowEvent('keydown', (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey || e.key.toLowerCase() !== 'k') return;
    if (isTyping(e) || dialogOpen()) return;
    e.preventDefault();
    setOpened(true);
  });
  return (
    <>
      <Button
        variant="default"
        size="compact-sm"
        radius="md"
        aria-label={t('open')}
        title={compact ? t('open') : undefined}
        styles={compact ? { section: { marginInline: 0 } } : undefined}
        leftSection={<SearchIcon />}
        onClick={() => setOpened(true)}
        data-testid="message-search-open"
      >
        {compact ? null : t('open')}
      </Button>
      <MessageSearchDialog opened={opened} onClose={() => setOpened(false)} />
    </>
  );
}

function SearchIcon() {
  return (
    <svg
      width="14"
      height="14"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </svg>
  );
}
