import { Badge, Burger, Group, Text, ThemeIcon, Tabs } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { LanguageSwitcher } from '../../components/language-switcher';
import { ThemeToggle } from '../../components/theme-toggle';
import { useGroupList } from '../../features/sessions/hooks/use-group-list';
import { ReadButton } from '../../features/session-actions/components/read-button';
import { OperatorButton } from '../../features/operator/components/operator-button';
import { OfflineIndicator } from '../../features/realtime/components/offline-indicator';
import { SoundToggle } from '../../features/realtime/components/sound-toggle';
import { lazyComponent } from '../../lib/lazy-component';
import { MessageSearchButton } from '../../features/search/components/message-search-button';
import { TranslationSettingsButton } from '../../features/translation/components/translation-settings-button';
import { setGroupsDrawer, useConsole } from '../../stores/console.store';
import { useConsoleWidth } from './use-console-width';
import classes from './app-header.module.css';

/** Web Push's switch: fetched with the operator dialog that shows it, not with the header. */
const PushToggle = lazyComponent(
  async () => (await import('../../features/realtime/components/push-toggle')).PushToggle,
);

/**
 * The console's header. Narrower than 1280 px its buttons show their icons alone (named for
 * screen readers and on hover); on a phone it wraps onto a second line rather than overlap
 * or cut a label. Below 1200 px it opens the groups drawer.
 */
export function AppHeader() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const width = useConsoleWidth();
  const compact = useMediaQuery('(max-width: 1279px)', undefined, {
    getInitialValueInEffect: false,
  });
  const drawerOpen = useConsole((s) => s.groupsDrawer);
  const tab = pathname.startsWith('/home/addressBook') ? 'addressBook' : 'chat';
  return (
    <header className={classes.header} data-testid="app-header">
      <div className={classes.start}>
        {width !== 'wide' && tab === 'chat' && (
          <Burger
            size="sm"
            opened={drawerOpen}
            onClick={() => setGroupsDrawer(!drawerOpen)}
            aria-label={t('header.groups')}
            title={t('header.groups')}
            data-testid="groups-drawer-open"
            data-header-item
          />
        )}
        <Group gap={8} wrap="nowrap" data-header-item>
          <ThemeIcon radius="md" variant="gradient" gradient={{ from: 'blue', to: 'cyan' }}>
            <Text fw={800} c="white" size="sm">
              P
            </Text>
          </ThemeIcon>
          {width !== 'phone' && <Text fw={800}>{t('appName')}</Text>}
        </Group>
        <Tabs value={tab} onChange={(v) => navigate(`/home/${v}`)} variant="pills" radius="md">
          <Tabs.List style={{ flexWrap: 'nowrap' }}>
            <Tabs.Tab value="chat">{t('routes.chat')}</Tabs.Tab>
            <Tabs.Tab value="addressBook">{t('routes.addressBook')}</Tabs.Tab>
          </Tabs.List>
        </Tabs>
      </div>
      <div className={classes.actions}>
        <OfflineIndicator />
        <span data-header-item>
          <MessageSearchButton compact={compact} />
        </span>
        <span data-header-item>
          <TranslationSettingsButton compact={compact} />
        </span>
        <TotalUnread compact={compact} />
        <span data-header-item>
          <LanguageSwitcher />
        </span>
        <span data-header-item>
          <ThemeToggle />
        </span>
        <div className={classes.operator} data-header-item>
          <OperatorButton
            settings={
              <>
                <SoundToggle />
                <PushToggle />
              </>
            }
          />
        </div>
      </div>
    </header>
  );
}

/**
 * The seat's unread total and "read all": the one part of the header that follows the group
 * list, so a new list (at sign-in, then each poll) renders this, not the whole header.
 */
function TotalUnread({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const { data } = useGroupList();
  const unread = data?.un_read_count ?? 0;
  if (unread <= 0) return null;
  return (
    <div className={classes.unread} data-header-item>
      {!compact && (
        <Text size="sm" c="dimmed">
          {t('header.totalUnread')}
        </Text>
      )}
      <Badge
        color="red"
        data-testid="total-unread"
        title={t('header.totalUnread')}
        style={{ flexShrink: 0 }}
      >
        {unread}
      </Badge>
      <ReadButton testId="read-all" />
    </div>
  );
}
