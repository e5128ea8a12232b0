import '../../../components/mantine-console-styles';
import { Grid, Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { closeBatch, startNewBatch, useBatch } from '../batch.store';
import { useBatchSelection } from '../hooks/use-batch-selection';
import { BatchCompose } from './batch-compose';
import { BatchProgress } from './batch-progress';
import { BatchTargetList } from './batch-target-list';

/** The batch reply dialog (spec: batch reply state `visible`, `batch_send_info`). */
export function BatchReplyDialog() {
  const { t } = useTranslation('batch');
  const visible = useBatch((s) => s.visible);
  const info = useBatch((s) => s.batch_send_info);
  return (
    <Modal opened={visible} onClose={closeBatch} title={t('title')} size="xl" centered>
      <div data-testid="batch-dialog">
        {info &&
          (info.status ? (
            <BatchProgress initial={info.status} onNew={startNewBatch} onClose={closeBatch} />
          ) : (
            // Keyed by batch: a new batch starts with an empty selection.
            <BatchComposer key={info.batch_id} batchId={info.batch_id} />
          ))}
      </div>
    </Modal>
  );
}

function BatchComposer({ batchId }: { batchId: string }) {
  const selection = useBatchSelection();
  return (
    <Grid gap="md" h={480}>
      <Grid.Col span={{ base: 12, sm: 7 }} h="100%">
        <BatchTargetList selection={selection} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 5 }} h="100%">
        <BatchCompose batchId={batchId} selection={selection} />
      </Grid.Col>
    </Grid>
  );
}
