import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { createStore, useStore } from '../../../lib/create-store';
import { adminLoginEnded } from '../api/admin-client';
import { AdminPushConnection, adminRealtimeUrl } from '../api/admin-push';
import { refetchScopes, setOverview, tzOffsetMin } from '../api/admin-queries';
import { refreshSeatStats, refreshStats } from '../api/stats-queries';

const onlineStore = createStore(false);

/** Whether the admin push socket is up (the header's live badge). */
export const useAdminLive = () => useStore(onlineStore);

/**
 * Holds the admin push socket while the admin area is open with a token: pushed overviews go
 * into the overview query (the charts refetch their current bucket, an open seat dialog its hours
 * and waits), "lists changed" hints refetch those lists, and each (re)connect
 * refetches every admin list shown (nothing is replayed).
 */
export function useAdminPush(token: string | null): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!token) return;
    const connection = new AdminPushConnection(
      adminRealtimeUrl(window.location),
      { token, tz_offset_min: tzOffsetMin() },
      {
        onReady: () => refetchScopes(client, ['seats', 'accounts', 'outbox', 'audit']),
        onOverview: (overview) => {
          setOverview(client, overview);
          void refreshStats(client, overview.at).catch(() => undefined);
          void refreshSeatStats(client);
        },
        onChanged: (scopes) => refetchScopes(client, scopes),
        onOnline: (online) => onlineStore.set(online),
        onExpired: adminLoginEnded,
      },
    );
    connection.start();
    return () => {
      connection.stop();
      onlineStore.set(false);
    };
  }, [token, client]);
}
