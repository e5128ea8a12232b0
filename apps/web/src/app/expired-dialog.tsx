import '@mantine/core/styles/Modal.layer.css';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { logoutAndReload } from '../lib/login-session';
import { UnsentNotice } from '../features/messages/components/unsent-logout';

interface Props {
  opened: boolean;
  onDismiss: () => void;
}

/** "Tip: Current login has expired, please login again": confirm logs out, dismiss resets. */
export function ExpiredDialog({ opened, onDismiss }: Props) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onDismiss} title={t('expired.title')} centered>
      <Stack data-testid="login-expired-modal">
        <Text>{t('messages:loginExpired')}</Text>
        <UnsentNotice />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDismiss} data-testid="confirm-cancel">
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
