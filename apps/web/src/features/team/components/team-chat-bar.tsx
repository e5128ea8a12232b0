import { Badge, Button, Group, Menu } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import { teamMembersQuery } from '../api/team-api';
import { useIsTeamChat } from '../hooks/use-team-queues';
import { useBackToQueue } from '../hooks/use-team-actions';
import { openHandOver } from '../team-view.store';

/**
 * The chat header's team part: who holds the chat, and Hand over… / Back to queue (H / Q).
 * Nothing for a chat that is not on a team account; `compact` (a phone's header): nothing
 * either, the chat's menu has both actions.
 */
export function TeamChatBar({ user, compact = false }: { user: SessionItem; compact?: boolean }) {
  const { t } = useTranslation('team');
  const team = useIsTeamChat(user);
  const { data } = useQuery({ ...teamMembersQuery(user.session_id), enabled: team && !compact });
  const back = useBackToQueue();
  if (!team || compact) return null;
  const holder = data?.holder;
  return (
    <Group gap={6} wrap="nowrap" data-testid="team-chat-bar">
      <Badge
        variant="light"
        color="teal"
        data-testid="chat-holder"
        style={{ textTransform: 'none' }}
      >
        {holder ? t('heldBy', { name: holder.nickname }) : t('heldByYou')}
      </Badge>
      <Button
        size="compact-xs"
        variant="light"
        onClick={() => openHandOver(user)}
        title={`${t('handOver')} (H)`}
        data-testid="chat-hand-over"
      >
        {t('handOver')}
      </Button>
      <Button
        size="compact-xs"
        variant="subtle"
        color="gray"
        onClick={() => void back(user)}
        title={`${t('backToQueue')} (Q)`}
        data-testid="chat-back-to-queue"
      >
        {t('backToQueue')}
      </Button>
    </Group>
  );
}

/** The same two actions as items of the chat's menus (the row's context menu, the header's). */
export function TeamActionItems({ user }: { user: SessionItem }) {
  const { t } = useTranslation('team');
  const team = useIsTeamChat(user);
  const back = useBackToQueue();
  if (!team) return null;
  return (
    <>
      <Menu.Item onClick={() => openHandOver(user)} data-testid="session-action-hand-over">
        {t('handOver')}
      </Menu.Item>
      <Menu.Item onClick={() => void back(user)} data-testid="session-action-back-to-queue">
        {t('backToQueue')}
      </Menu.Item>
      <Menu.Divider />
    </>
  );
}
