import type { ReactNode } from 'react';
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { setReply, setUserTimeType, useConsole } from '../../../stores/console.store';

/**
 * Why the user list is empty and the way out: show all chats when the reply filter hides them,
 * the earlier tab when the last 24 hours are quiet, or a new chat (not in a blocked group).
 * `showGroups`: the groups are folded into a drawer (a narrow console): the button opening it.
 */
export function UserListEmpty({
  addChat,
  showGroups,
}: {
  addChat: ReactNode;
  showGroups?: ReactNode;
}) {
  const { t } = useTranslation('chat');
  const group = useConsole((s) => s.selectedGroup);
  const userTimeType = useConsole((s) => s.userTimeType);
  const reply = useConsole((s) => s.reply);
  const testId = 'user-list-empty';

  if (!group) {
    return (
      <EmptyState
        testId={testId}
        title={t('userListEmpty.noGroupTitle')}
        text={showGroups ? t('userListEmpty.noGroupTextFolded') : t('userListEmpty.noGroupText')}
        action={showGroups}
      />
    );
  }
  if (reply === 1) {
    return (
      <EmptyState
        testId={testId}
        title={t('userListEmpty.waitingTitle')}
        text={t('userListEmpty.waitingText')}
        action={
          <Button size="sm" onClick={() => setReply(0)} data-testid="user-list-show-all">
            {t('userListEmpty.showAll')}
          </Button>
        }
      />
    );
  }
  if (userTimeType === 1) {
    return (
      <EmptyState
        testId={testId}
        title={t('userListEmpty.recentTitle')}
        text={t('userListEmpty.recentText')}
        action={
          <Button size="sm" onClick={() => setUserTimeType(2)} data-testid="user-list-show-earlier">
            {t('userListEmpty.showEarlier')}
          </Button>
        }
      />
    );
  }
  const blocked = group.disabled || group.group_type === 'blocked';
  return (
    <EmptyState
      testId={testId}
      title={t('userListEmpty.earlierTitle')}
      text={blocked ? t('userListEmpty.blockedText') : t('userListEmpty.earlierText')}
      action={blocked ? undefined : addChat}
    />
  );
}
