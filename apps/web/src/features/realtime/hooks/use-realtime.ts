import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { EventPayload } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';
import { i18n } from '../../../lib/i18n';
import { readToken } from '../../../lib/storage';
import { consoleStore } from '../../../stores/console.store';
import { applyEvent } from '../apply-event';
import { askNotificationsOnce, clearAttention, raiseAttention } from '../attention';
import { afterFirstScreen } from '../../../lib/first-screen';
import { retrying } from '../../../lib/retrying-import';
import type { PushConnection, PushHandlers } from '../push-connection';
import { realtimeOnline } from '../../../stores/realtime.store';
import { mutedChatsKey } from '../../sessions/api/muted-chats';
import { refreshLists } from '../../sessions/api/session-cache';
import { teamKeys } from '../../team/api/team-api';
import { applyPresence } from '../../team/api/team-presence';

/** The open chat reads a customer's new message as opening it does (getChatRecord clears unread). */
function readOpenChat(data: EventPayload<'message.created'>): void {
  void callApi(
    '/v1/seat/chat/getChatRecord',
    {
      send_phone: data.session.send_phone,
      receiver_phone: data.session.receiver_phone,
      after_id: data.message.msg_id,
      page_size: 1,
    },
    { notify: false },
  ).catch(() => undefined);
}

/**
 * The socket's code, with the protocol's frame schemas (zod, ~25 KB gzip): fetched once the
 * first screen is up, not with it (what the first row needs comes first, issue 37). Events
 * of the moments before are not lost: the first `ready` refetches what the console shows.
 */
const loadConnection = retrying(() => import('../push-connection'));

function refetchAll(qc: QueryClient): void {
  refreshLists(qc);
  void qc.invalidateQueries({ queryKey: teamKeys.queues });
  void qc.invalidateQueries({ queryKey: ['chat'] });
  void qc.invalidateQueries({ queryKey: mutedChatsKey });
}

/**
 * One push socket while the console is open: events go into the query caches; a `reset` (or a
 * reconnect with nothing to resume from) refetches. The 10-second group poll stays as the net.
 */
/** `onTeamAssigned`: a module-level function (a new one each render would reconnect). */
export function useRealtime(
  onTeamAssigned?: (qc: QueryClient, data: EventPayload<'team.assigned'>) => void,
): void {
  const qc = useQueryClient();
  const token = readToken();

  useEffect(() => {
    if (!token) return;
    const onVisible = () => {
      if (document.visibilityState === 'visible') clearAttention();
    };
    document.addEventListener('visibilitychange', onVisible);
    const stopAsking = askNotificationsOnce();
    const handlers: PushHandlers = {
      onReady(_last, fresh) {
        // Nothing to resume from: the first connection (what changed between the page's first
        // fetches and this moment was never pushed) or a drop of a seat without events.
        if (fresh) refetchAll(qc);
      },
      onReset() {
        refetchAll(qc);
      },
      onEvent(event) {
        applyEvent(qc, event, {
          onTeamAssigned(data) {
            onTeamAssigned?.(qc, data);
          },
          onCustomerMessage(data) {
            const hidden = document.visibilityState === 'hidden';
            const open = consoleStore.get().selectedUser?.session_id === data.session.session_id;
            if (open && !hidden) readOpenChat(data);
            if (hidden) {
              const who = data.session.remark || data.session.receiver_phone;
              // i18n.t, not the hook's t: a language switch must not reconnect the socket.
              raiseAttention(
                i18n.t('realtime:notificationTitle', { who }),
                data.message.content || i18n.t(`realtime:media.${data.message.type}`),
                `parley-${data.session.session_id}`,
              );
            }
          },
        });
      },
      onPresence(presence) {
        applyPresence(presence);
      },
      onOnline(online) {
        realtimeOnline.set(online);
      },
      onExpired() {
        // The next call opens the single login-expired dialog.
        refreshLists(qc, 'groups');
      },
    };
    let connection: PushConnection | undefined;
    let stopped = false;
    const cancelWait = afterFirstScreen(() => {
      void loadConnection().then(({ PushConnection, realtimeUrl }) => {
        if (stopped) return;
        connection = new PushConnection(realtimeUrl(window.location), token, handlers);
        connection.start();
      });
    });
    return () => {
      stopped = true;
      cancelWait();
      connection?.stop();
      stopAsking();
      document.removeEventListener('visibilitychange', onVisible);
      realtimeOnline.set(null);
    };
  }, [token, qc, onTeamAssigned]);
}
