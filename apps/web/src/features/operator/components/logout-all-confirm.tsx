import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ERROR_CODES } from '@parley/protocol';
import { ApiError } from '../../../lib/api-core';
import { logoutEverywhereAndReload } from '../../../lib/login-session';
import { UnsentNotice } from '../../messages/components/unsent-logout';

/**
 * "Log out of every device", confirmed in the operator dialog itself: every login of the seat
 * ends, this one included. On failure the request layer has said why and the operator stays.
 */
export function LogoutAllConfirm({
  onCancel,
  onClose,
}: {
  onCancel: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('operator');
  const { t: tc } = useTranslation();
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    setBusy(true);
    try {
      await logoutEverywhereAndReload();
    } catch (err) {
      // Already logged out here: the login-expired dialog is open, and must not sit beneath this one.
      if (err instanceof ApiError && err.code === ERROR_CODES.TOKEN_EXPIRED) onClose();
      else setBusy(false);
    }
  };

  return (
    <Stack data-testid="logout-all-confirm">
      <Text>{t('logoutAllMessage')}</Text>
      <UnsentNotice />
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} disabled={busy} data-testid="confirm-cancel">
          {tc('actions.cancel')}
        </Button>
        <Button color="red" loading={busy} onClick={() => void confirm()} data-testid="confirm-ok">
          {t('logoutAllConfirm')}
        </Button>
      </Group>
    </Stack>
  );
}
