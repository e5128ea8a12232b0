import '../../features/admin/mantine-admin-styles';
import { useEffect } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { AppShell, Badge, Burger, Group, NavLink, Stack, Text, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { NavLink as RouterLink, Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import { queryClient } from '../../lib/query-client';
import { useStore } from '../../lib/create-store';
import { LanguageSwitcher } from '../../components/language-switcher';
import { ThemeToggle } from '../../components/theme-toggle';
import { adminExpiredStore, adminLoginStore } from '../../features/admin/api/admin-token';
import { useAdminLive, useAdminPush } from '../../features/admin/hooks/use-admin-push';
import { AdminLogoutButton } from '../../features/admin/components/admin-logout-button';
import classes from './admin-layout.module.css';
import { ADMIN_SECTIONS } from './admin-sections';

export interface AdminRouteHandle {
  /** Key under `routes.` in the admin namespace. */
  adminTitle?: string;
}

/** The admin area's document title, from the deepest route that names one. */
function useAdminTitle(): void {
  const { t, i18n } = useTranslation('admin');
  const matches = useMatches();
  const key = [...matches]
    .reverse()
    .map((m) => (m.handle as AdminRouteHandle | undefined)?.adminTitle)
    .find(Boolean);
  useEffect(() => {
    const area = t('appName');
    document.title = key ? `${t(`routes.${key}`)} · ${area}` : area;
  }, [key, t, i18n.language]);
}

/** A call or the socket found the admin login ended: back to its login, then here again. */
function useLoginEnded(): void {
  const ended = useStore(adminExpiredStore);
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  useEffect(() => {
    if (!ended) return;
    adminExpiredStore.set(false);
    queryClient.removeQueries({ queryKey: ['admin'] });
    const back = encodeURIComponent(pathname + search);
    navigate(`/admin/login?expired=1&redirect=${back}`, { replace: true });
  }, [ended, navigate, pathname, search]);
}

function LiveBadge() {
  const { t } = useTranslation('admin');
  const live = useAdminLive();
  return (
    <Badge
      color={live ? 'teal' : 'gray'}
      variant="light"
      data-testid="admin-live"
      data-live={live}
      role="status"
      // Whole in every language: the title gives way first (issue 37).
      style={{ flexShrink: 0, overflow: 'visible' }}
    >
      {live ? t('live.on') : t('live.off')}
    </Badge>
  );
}

/**
 * The administrator's console: a shell apart from the seat console (its own token, no tab lock,
 * its own push socket), with the sections in a side navigation.
 */
export function AdminLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <AdminShell />
    </QueryClientProvider>
  );
}

function AdminShell() {
  const { t } = useTranslation('admin');
  const login = useStore(adminLoginStore);
  const [opened, { toggle, close }] = useDisclosure();
  const { pathname } = useLocation();
  useAdminTitle();
  useLoginEnded();
  useAdminPush(login?.token ?? null);
  // Below Mantine's `sm` (48em, where the navigation folds into the menu); read at the first
  // render, so that a phone never renders the desktop header first.
  const phone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  // Up to Mantine's `md` (62em) the header holds the product's name alone: a tablet in Russian
  // has no room for "Parley: администрирование" beside the live badge and the account's tools.
  const narrow = useMediaQuery('(max-width: 61.99em)', false, { getInitialValueInEffect: false });
  const account = (
    <Text size="sm" c="dimmed" data-testid="admin-account">
      {login?.account}
    </Text>
  );

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
      data-testid="admin-shell"
    >
      <AppShell.Header>
        <Group h="100%" px={phone ? 'sm' : 'md'} justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={phone ? 'xs' : 'sm'} wrap="nowrap" style={{ minWidth: 0 }}>
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('nav.toggle')}
              data-testid="admin-nav-toggle"
            />
            <Title order={1} size="h4" style={{ whiteSpace: 'nowrap' }} data-testid="admin-title">
              {narrow ? 'Parley' : t('appName')}
            </Title>
            <LiveBadge />
          </Group>
          <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
            {!phone && account}
            {!phone && <LanguageSwitcher />}
            <ThemeToggle />
            {!phone && <AdminLogoutButton />}
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label={t('nav.label')}>
        <AppShell.Section grow>
          {ADMIN_SECTIONS.map((section) => (
            <NavLink
              key={section}
              component={RouterLink}
              to={`/admin/${section}`}
              label={t(`routes.${section}`)}
              active={pathname.startsWith(`/admin/${section}`)}
              onClick={close}
              data-testid={`admin-nav-${section}`}
            />
          ))}
        </AppShell.Section>
        {phone && (
          // The header has no room for these on a phone: the menu holds them (issue 37).
          <AppShell.Section data-testid="admin-nav-account">
            <Stack gap="xs" pt="sm" className={classes.menuAccount}>
              {account}
              <Group gap="xs" justify="space-between" wrap="nowrap">
                <LanguageSwitcher />
                <AdminLogoutButton />
              </Group>
            </Stack>
          </AppShell.Section>
        )}
      </AppShell.Navbar>
      <AppShell.Main
        style={{ display: 'flex', flexDirection: 'column', height: '100dvh' }}
        data-testid="admin-main"
      >
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
