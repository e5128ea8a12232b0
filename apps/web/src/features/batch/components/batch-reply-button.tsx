import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { lazyComponent } from '../../../lib/lazy-component';
import { useOpenedOnce } from '../../../lib/use-opened-once';
import { openBatch, useBatch } from '../batch.store';

const BatchReplyDialog = lazyComponent(
  async () => (await import('./batch-reply-dialog')).BatchReplyDialog,
);

/** Opens the batch reply dialog. */
export function BatchReplyButton() {
  const { t } = useTranslation('batch');
  return (
    <Button size="compact-xs" variant="light" onClick={openBatch} data-testid="batch-open">
      {t('open')}
    </Button>
  );
}

/**
 * The batch reply dialog, its code fetched at the first opening. Mounted by the console apart
 * from the button: below 1200 px the button is in the groups drawer, which closes (and
 * unmounts its content) when the dialog opens.
 */
export function BatchReplyHost() {
  const mounted = useOpenedOnce(useBatch((s) => s.visible));
  return mounted ? <BatchReplyDialog /> : null;
}
