import '../../components/mantine-console-styles';
import { memo } from 'react';
import { Outlet } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../../lib/query-client';
import { UnsentLogoutModal } from '../../features/messages/components/unsent-logout';
import { useOutbox } from './use-outbox';
import { useTranslationRuntime } from '../../features/translation/hooks/use-translation-runtime';
import { useRealtime } from '../../features/realtime/hooks/use-realtime';
import type { QueryClient } from '@tanstack/react-query';
import type { EventPayload } from '@parley/protocol';
import { retrying } from '../../lib/retrying-import';
import { useTimeTabs } from '../../features/sessions/hooks/use-time-tabs';
import { AppHeader } from './app-header';
import { SkipLinks } from '../../features/shortcuts/skip-links';
import { useOfflineCode } from './use-offline-code';
import classes from './home-layout.module.css';

/**
 * A chat handed to this seat is told at once (issue 35). The toast's code (and its styles)
 * comes with the first hand-over, not with the console's first screen.
 */
const loadTeamAssigned = retrying(
  async () => (await import('../../features/team/hooks/team-assigned-toast')).showTeamAssigned,
);
function showTeamAssigned(qc: QueryClient, data: EventPayload<'team.assigned'>): void {
  void loadTeamAssigned().then((show) => show(qc, data));
}

/** /home/*: the console's server data (TanStack Query) lives here, not on the login screen. */
export function HomeLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <HomeShell />
    </QueryClientProvider>
  );
}

/** Not rendered over by a navigation (a chat switch moves the URL): its Outlet follows it. */
const HomeShell = memo(function HomeShell() {
  useOutbox();
  useOfflineCode();
  useTranslationRuntime();
  useRealtime(showTeamAssigned);
  useTimeTabs();
  return (
    <div className={classes.shell}>
      <SkipLinks />
      <AppHeader />
      <main className={classes.main}>
        <Outlet />
      </main>
      <UnsentLogoutModal />
    </div>
  );
});
