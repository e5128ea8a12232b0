import { Outlet } from 'react-router';
import { UnsentLogoutModal } from '../../features/messages/components/unsent-logout';
import { useOutbox } from '../../features/messages/hooks/use-outbox';
import { useTranslationRuntime } from '../../features/translation/hooks/use-translation-runtime';
import { useRealtime } from '../../features/realtime/hooks/use-realtime';
import { AppHeader } from './app-header';
import classes from './home-layout.module.css';

export function HomeLayout() {
  useOutbox();
  useTranslationRuntime();
  useRealtime();
  return (
    <div className={classes.shell}>
      <AppHeader />
      <main className={classes.main}>
        <Outlet />
      </main>
      <UnsentLogoutModal />
    </div>
  );
}
