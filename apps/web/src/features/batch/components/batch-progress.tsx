import { Badge, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { Virtuoso } from 'react-virtuoso';
import { useTranslation } from 'react-i18next';
import type { BatchStatus } from '@parley/protocol';
import { useBatchProgress } from '../hooks/use-batch-progress';

const STATUS_COLOR = { pending: 'gray', sent: 'green', failed: 'red' } as const;

interface Props {
  initial: BatchStatus;
  onNew: () => void;
  onClose: () => void;
}

/** A sent batch: progress while the server sends, then the result of every chat. */
export function BatchProgress({ initial, onNew, onClose }: Props) {
  const { t } = useTranslation('batch');
  const { t: te } = useTranslation('errors');
  const status = useBatchProgress(initial);
  const tried = status.sent + status.failed;
  return (
    <Stack gap="sm" h={480}>
      <Text fw={600} data-testid="batch-summary">
        {status.done
          ? t('doneSummary', { sent: status.sent, failed: status.failed, total: status.total })
          : t('sendingSummary', { tried, total: status.total })}
      </Text>
      <Progress.Root size="lg" data-testid="batch-progress" data-done={status.done}>
        <Progress.Section value={(status.sent / status.total) * 100} color="green" />
        <Progress.Section value={(status.failed / status.total) * 100} color="red" />
      </Progress.Root>
      <Group gap="md">
        <Text size="sm" data-testid="batch-sent-count">
          {t('sentCount', { count: status.sent })}
        </Text>
        <Text size="sm" c={status.failed ? 'red' : 'dimmed'} data-testid="batch-failed-count">
          {t('failedCount', { count: status.failed })}
        </Text>
      </Group>
      <div style={{ flex: 1, minHeight: 0 }} data-testid="batch-results">
        <Virtuoso
          style={{ height: '100%' }}
          data={status.results}
          computeItemKey={(_, r) => r.session_id}
          itemContent={(_, r) => (
            <Group
              justify="space-between"
              wrap="nowrap"
              py={4}
              px="xs"
              data-testid="batch-result"
              data-session-id={r.session_id}
              data-status={r.status}
            >
              <Text size="sm">{r.receiver_phone}</Text>
              <Group gap={6} wrap="nowrap">
                {r.status === 'failed' && r.code && (
                  <Text size="xs" c="red" data-testid="batch-result-reason">
                    {te(r.code, { defaultValue: t('unknownReason') })}
                  </Text>
                )}
                <Badge color={STATUS_COLOR[r.status]} variant="light">
                  {t(`status.${r.status}`)}
                </Badge>
              </Group>
            </Group>
          )}
        />
      </div>
      <Group justify="flex-end">
        <Button variant="default" onClick={onNew} disabled={!status.done} data-testid="batch-new">
          {t('newBatch')}
        </Button>
        <Button onClick={onClose} data-testid="batch-close">
          {t('close')}
        </Button>
      </Group>
    </Stack>
  );
}
