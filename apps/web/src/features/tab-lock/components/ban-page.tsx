import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { claimTab } from '../../../lib/tab-lock';
import { TAB_ID, tabChannel, type TakeoverMessage } from '../tab-id';

/** Shown when the app is already open in another tab; "Use here" takes the session over. */
export function BanPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;

  const useHere = () => {
    claimTab(window.localStorage, TAB_ID, Date.now());
    tabChannel()?.postMessage({ type: 'takeover', id: TAB_ID } satisfies TakeoverMessage);
    const target = from && from !== '/ban-page' && !from.startsWith('/login') ? from : '/home/chat';
    navigate(target, { replace: true });
  };

  return (
    <Center h="100vh" p="md">
      <Paper withBorder radius="md" p="xl" maw={460} shadow="sm">
        <Stack align="center" ta="center">
          <Text size="40px">🗂️</Text>
          <Title order={3}>{t('ban.title')}</Title>
          <Text data-testid="ban-message">{t('messages:appOpenInAnotherTab')}</Text>
          <Text size="sm" c="dimmed">
            {t('ban.hint')}
          </Text>
          <Button onClick={useHere} data-testid="ban-use-here">
            {t('ban.useHere')}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
