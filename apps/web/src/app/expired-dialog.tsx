import '@mantine/core/styles/Modal.layer.css';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { logoutAndReload } from '../lib/login-session';
import { UnsentNotice } from '../features/messages/components/unsent-logout';

interface Props {
  opened: boolean;
  /** The seat was frozen: "Cannot login, account is frozen" (200002). */
  frozen?: boolean;
  onDismiss: () => void;
}

/**
 * "Tip: Current login has expired, please login again" (or, for a frozen seat, "Cannot login,
 * account is frozen"): confirm logs out, dismiss resets.
 */
export function ExpiredDialog({ opened, frozen = false, onDismiss }: Props) {
  const { t } = useTranslation();
  const title = frozen ? t('expired.frozenTitle') : t('expired.title');
  return (
    <Modal opened={opened} onClose={onDismiss} title={title} centered>
      <Stack data-testid="login-expired-modal" data-reason={frozen ? 'frozen' : 'expired'}>
        <Text>{frozen ? t('errors:200002') : t('messages:loginExpired')}</Text>
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
