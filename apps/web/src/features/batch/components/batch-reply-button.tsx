import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { openBatch } from '../batch.store';
import { BatchReplyDialog } from './batch-reply-dialog';

/** Opens the batch reply dialog. */
export function BatchReplyButton() {
  const { t } = useTranslation('batch');
  return (
    <>
      <Button size="compact-xs" variant="light" onClick={openBatch} data-testid="batch-open">
        {t('open')}
      </Button>
      <BatchReplyDialog />
    </>
  );
}
