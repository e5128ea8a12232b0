import type { ComponentType } from 'react';
import { ActionIcon, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import { openProfileCard } from '../../../stores/profile-card.store';
import { SessionActionItems } from './session-action-items';

/** The chat header's menu: the same actions as the list's context menu, for keyboard users. */
export function ChatHeaderActions({
  user,
  Extra,
}: {
  user: SessionItem;
  Extra?: ComponentType<{ user: SessionItem }>;
}) {
  const { t } = useTranslation('session-actions');
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={t('menu')}
          title={t('menu')}
          data-testid="chat-actions"
        >
          ⋯
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown data-testid="chat-actions-menu">
        <SessionActionItems user={user} onProfile={openProfileCard} Extra={Extra} />
      </Menu.Dropdown>
    </Menu>
  );
}
