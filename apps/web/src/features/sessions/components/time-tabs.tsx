import { Group, SegmentedControl, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CountBadge } from '../../../components/count-badge';
import { setReply, setUserTimeType, useConsole } from '../../../stores/console.store';
import { useGroupList } from '../hooks/use-group-list';
import { lazyComponent } from '../../../lib/lazy-component';
import { useLabels } from '../../labels/api/labels-api';
import classes from './time-tabs.module.css';

// The filter's Select (Mantine's combobox) is fetched only once the owner has defined labels:
// the console's first load stays without it.
const LabelFilter = lazyComponent(async () => (await import('./label-filter')).LabelFilter);

/** The two user_time_type tabs with their unread totals, and the reply filter. */
export function TimeTabs() {
  const { t } = useTranslation('chat');
  const userTimeType = useConsole((s) => s.userTimeType);
  const hasLabels = useLabels().length > 0;
  const reply = useConsole((s) => s.reply);
  const { data } = useGroupList();
  return (
    <div data-testid="time-tabs">
      <Tabs
        value={String(userTimeType)}
        onChange={(v) => setUserTimeType(v === '2' ? 2 : 1)}
        variant="default"
        classNames={{
          tab: classes.tab,
          tabLabel: classes.tabLabel,
          tabSection: classes.tabSection,
        }}
      >
        <Tabs.List grow>
          <Tabs.Tab
            value="1"
            data-testid="time-tab-1"
            rightSection={
              <CountBadge count={data?.seat_one_seat_msg_count ?? 0} testId="time-tab-1-unread" />
            }
          >
            {t('timeTab.recent')}
          </Tabs.Tab>
          <Tabs.Tab
            value="2"
            data-testid="time-tab-2"
            rightSection={
              <CountBadge count={data?.seat_two_seat_msg_count ?? 0} testId="time-tab-2-unread" />
            }
          >
            {t('timeTab.earlier')}
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <Group px="xs" py={6} gap={6}>
        <SegmentedControl
          size="xs"
          fullWidth
          flex={1}
          value={String(reply)}
          onChange={(v) => setReply(v === '1' ? 1 : 0)}
          data={[
            { value: '0', label: t('replyFilter.all') },
            { value: '1', label: t('replyFilter.waiting') },
          ]}
          data-testid="reply-filter"
          data-value={reply}
        />
        {hasLabels && <LabelFilter />}
      </Group>
    </div>
  );
}
