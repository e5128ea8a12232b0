import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { lazyComponent } from '../../../lib/lazy-component';
import { useOpenedOnce } from '../../../lib/use-opened-once';
import { openBatch, useBatch } from '../batch.store';

const BatchReplyDialog = lazyComponent(
  async () => (await import('./batch-reply-dialog')).BatchReplyDialog,
);

/** Opens the batch reply dialog (its code is fetched at the first opening). */
export function BatchReplyButton() {
  const { t } = useTranslation('batch');
  const mounted = useOpenedOnce(useBatch((s) => s.visible));
  return (
    <>
      <Button size="compact-xs" variant="light" onClick={openBatch} data-testid="batch-open">
        {t('open')}
      </Button>
      {mounted && <BatchReplyDialog />}
    </>
  );
}
