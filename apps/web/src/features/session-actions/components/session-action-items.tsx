import type { ComponentType } from 'react';
import { Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import { useMutedChats } from '../../sessions/api/muted-chats';
import { openSessionDialog } from '../../../stores/session-dialogs.store';
import { run, useSessionActions } from '../../sessions/hooks/use-session-actions';

interface Props {
  user: SessionItem;
  /** Opens the chat's profile card (absent where the card is what shows the menu). */
  onProfile?: () => void;
  /** More items another feature adds, handed in by the console (the team's hand-over). */
  Extra?: ComponentType<{ user: SessionItem }>;
}

/** The actions on one chat, as items of a menu (the list's context menu, the chat header). */
export function SessionActionItems({ user, onProfile, Extra }: Props) {
  const { t } = useTranslation('session-actions');
  const actions = useSessionActions();
  const muted = useMutedChats().has(user.session_id);
  return (
    <>
      {onProfile && (
        <Menu.Item onClick={onProfile} data-testid="session-action-profile">
          {t('profile')}
        </Menu.Item>
      )}
      {user.is_top ? (
        <Menu.Item
          onClick={() => run(actions.setTop(user, false))}
          data-testid="session-action-unpin"
        >
          {t('unpin')}
        </Menu.Item>
      ) : (
        <Menu.Item onClick={() => run(actions.setTop(user, true))} data-testid="session-action-pin">
          {t('pin')}
        </Menu.Item>
      )}
      {muted ? (
        <Menu.Item
          onClick={() => run(actions.setMuted(user, false))}
          data-testid="session-action-unmute"
        >
          {t('unmute')}
        </Menu.Item>
      ) : (
        <Menu.Item
          onClick={() => run(actions.setMuted(user, true))}
          data-testid="session-action-mute"
        >
          {t('mute')}
        </Menu.Item>
      )}
      {user.un_read_count === 0 && (
        <Menu.Item
          onClick={() => run(actions.markUnread(user))}
          data-testid="session-action-mark-unread"
        >
          {t('markUnread')}
        </Menu.Item>
      )}
      <Menu.Item
        onClick={() => openSessionDialog('remark', user)}
        data-testid="session-action-remark"
      >
        {t('remark')}
      </Menu.Item>
      {!user.blocked && (
        <Menu.Item
          onClick={() => openSessionDialog('move', user)}
          data-testid="session-action-move"
        >
          {t('move')}
        </Menu.Item>
      )}
      {user.blocked ? (
        <Menu.Item
          onClick={() => run(actions.setBlocked(user, false))}
          data-testid="session-action-unblock"
        >
          {t('unblock')}
        </Menu.Item>
      ) : (
        <Menu.Item
          onClick={() => run(actions.setBlocked(user, true))}
          data-testid="session-action-block"
        >
          {t('block')}
        </Menu.Item>
      )}
      <Menu.Divider />
      {Extra && <Extra user={user} />}
      <Menu.Item
        color="red"
        onClick={() => openSessionDialog('delete', user)}
        data-testid="session-action-delete"
      >
        {t('delete')}
      </Menu.Item>
    </>
  );
}
