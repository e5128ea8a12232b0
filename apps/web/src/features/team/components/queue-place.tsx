import { Group as Row, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CountBadge } from '../../../components/count-badge';
import { openQueue, useTeamView } from '../team-view.store';
import { queueSummary, useNow, useTeamQueues } from '../hooks/use-team-queues';
import { useWaitText } from '../hooks/use-wait-text';
import classes from './team-places.module.css';

/**
 * "Queue", above the groups of a seat that is a member of a team account: how many chats wait
 * and the longest wait, kept live by the pushed `team.queue` events. Absent for other seats.
 */
export function QueuePlace() {
  const { t } = useTranslation('team');
  const teams = useTeamQueues();
  const active = useTeamView((s) => s.queueOpen);
  const now = useNow();
  const waitText = useWaitText();
  if (teams.length === 0) return null;
  const { count, oldest } = queueSummary(teams);
  return (
    <div
      className={classes.place}
      data-active={active ? 'true' : 'false'}
      data-testid="queue-place"
    >
      <UnstyledButton className={classes.main} onClick={openQueue}>
        <Row gap={6} wrap="nowrap" justify="space-between">
          <div style={{ minWidth: 0 }}>
            <Text size="sm" fw={600}>
              {t('queue')}
            </Text>
            <Text size="xs" c="dimmed" truncate data-testid="queue-oldest">
              {oldest === null ? t('queueEmpty') : t('oldestWait', { wait: waitText(oldest, now) })}
            </Text>
          </div>
          <CountBadge count={count} color="orange" testId="queue-count" />
        </Row>
      </UnstyledButton>
    </div>
  );
}
