import { useEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useTabGuard } from '../features/tab-lock/hooks/use-tab-guard';
import { ExpiredModal } from './expired-modal';

export interface RouteHandle {
  /** Key of the route's name under `routes.` in the common namespace. */
  title?: string;
}

/** Every route: scroll to top on navigation, document title, tab lock, expired dialog. */
export function RootLayout() {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const matches = useMatches();
  useTabGuard();

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);

  const titleKey = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)
    ?.handle as RouteHandle | undefined;
  useEffect(() => {
    const app = t('appName');
    document.title = titleKey?.title ? `${t(`routes.${titleKey.title}`)} · ${app}` : app;
  }, [titleKey?.title, t, i18n.language]);

  return (
    <>
      <Outlet />
      <ExpiredModal />
    </>
  );
}
