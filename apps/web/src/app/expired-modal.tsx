import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { createStore, useStore } from '../lib/create-store';
import { createExpiredGuard } from '../lib/expired-guard';
import { logoutAndReload } from '../lib/login-session';
import { UnsentNotice } from '../features/messages/components/unsent-logout';

const openStore = createStore(false);
export const expiredGuard = createExpiredGuard(() => openStore.set(true));

/** "Tip: Current login has expired, please login again": confirm logs out, dismiss resets. */
export function ExpiredModal() {
  const { t } = useTranslation();
  const opened = useStore(openStore);
  const dismiss = () => {
    openStore.set(false);
    expiredGuard.reset();
  };
  return (
    <Modal opened={opened} onClose={dismiss} title={t('expired.title')} centered>
      <Stack data-testid="login-expired-modal">
        <Text>{t('messages:loginExpired')}</Text>
        <UnsentNotice />
        <Group justify="flex-end">
          <Button variant="default" onClick={dismiss} data-testid="confirm-cancel">
            {t('actions.cancel')}
          </Button>
          <Button onClick={() => void logoutAndReload()} data-testid="confirm-ok">
            {t('expired.relogin')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
