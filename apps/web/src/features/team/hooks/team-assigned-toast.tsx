import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { EventPayload } from '@parley/protocol';
import { i18n } from '../../../lib/i18n';
import { sessionKeys, type SessionPage } from '../../sessions/api/session-cache';
import { teamKeys } from '../api/team-api';
import classes from '../components/team-notes.module.css';

/** The chat as the cached lists have it (session.created came first), for its number. */
function cachedChat(qc: QueryClient, sessionId: number) {
  for (const [, data] of qc.getQueriesData<InfiniteData<SessionPage>>({
    queryKey: sessionKeys.all,
  })) {
    const found = data?.pages
      .flatMap((p) => p.account_list)
      .find((s) => s.session_id === sessionId);
    if (found) return found;
  }
  return undefined;
}

/**
 * A chat handed to this seat (by a member, or by routing): told at once, in the console, with
 * the hand-over note as text. i18n.t, not a hook: the socket's handler runs outside React.
 */
export function showTeamAssigned(qc: QueryClient, data: EventPayload<'team.assigned'>): void {
  void qc.invalidateQueries({ queryKey: teamKeys.notes(data.session_id) });
  void qc.invalidateQueries({ queryKey: teamKeys.members(data.session_id) });
  const chat = cachedChat(qc, data.session_id);
  const who = chat ? chat.remark || chat.customer_name || chat.receiver_phone : '';
  notifications.show({
    id: `team-assigned-${data.session_id}`,
    color: 'teal',
    autoClose: 15_000,
    title: data.from
      ? i18n.t('team:assignedBy', { name: data.from.nickname })
      : i18n.t('team:assignedRouted'),
    message: (
      <div data-testid="team-assigned-toast" data-session-id={data.session_id}>
        {who && <Text size="sm">{i18n.t('team:assignedChat', { who })}</Text>}
        {data.note && (
          <div className={classes.note} style={{ marginTop: 4 }}>
            <Text size="xs" fw={600} c="yellow.9">
              {i18n.t('team:handOverNoteLabel')}
            </Text>
            <Text size="sm" className={classes.content} data-testid="team-assigned-note">
              {data.note.content}
            </Text>
          </div>
        )}
      </div>
    ),
  });
}
