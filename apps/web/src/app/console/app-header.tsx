import { Badge, Group, Text, ThemeIcon, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { LanguageSwitcher } from '../../components/language-switcher';
import { ThemeToggle } from '../../components/theme-toggle';
import { useGroupList } from '../../features/sessions/hooks/use-group-list';
import { ReadButton } from '../../features/session-actions/components/read-button';
import { OperatorButton } from '../../features/operator/components/operator-button';
import { OfflineIndicator } from '../../features/realtime/components/offline-indicator';
import { SoundToggle } from '../../features/realtime/components/sound-toggle';
import { MessageSearchButton } from '../../features/search/components/message-search-button';
import { TranslationSettingsButton } from '../../features/translation/components/translation-settings-button';
import classes from './app-header.module.css';

export function AppHeader() {
  const { t } = useTranslation();
  const { data } = useGroupList();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tab = pathname.startsWith('/home/addressBook') ? 'addressBook' : 'chat';
  return (
    <header className={classes.header}>
      <div className={classes.start}>
        <Group gap={8} wrap="nowrap">
          <ThemeIcon radius="md" variant="gradient" gradient={{ from: 'blue', to: 'cyan' }}>
            <Text fw={800} c="white" size="sm">
              P
            </Text>
          </ThemeIcon>
          <Text fw={800}>{t('appName')}</Text>
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
        <MessageSearchButton />
        <TranslationSettingsButton />
        {(data?.un_read_count ?? 0) > 0 && (
          <div className={classes.unread}>
            <Text size="sm" c="dimmed">
              {t('header.totalUnread')}
            </Text>
            <Badge color="red" data-testid="total-unread" style={{ flexShrink: 0 }}>
              {data?.un_read_count}
            </Badge>
            <ReadButton testId="read-all" />
          </div>
        )}
        <LanguageSwitcher />
        <ThemeToggle />
        <div className={classes.operator}>
          <OperatorButton settings={<SoundToggle />} />
        </div>
      </div>
    </header>
  );
}
