import { useState } from 'react';
import { Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { logoutAndReload } from '../../../lib/login-session';
import { hasUnsentMessages, requestLogout } from '../../messages/components/unsent-logout';

/** The dialog's two ways out: log out here, or ask to log out of every device. */
export function LogoutActions({
  onClose,
  onLogoutAll,
}: {
  onClose: () => void;
  onLogoutAll: () => void;
}) {
  const { t } = useTranslation('operator');
  const [leaving, setLeaving] = useState(false);

  const logout = () => {
    if (hasUnsentMessages()) {
      // The warning must not open beneath this dialog, which would swallow its clicks.
      onClose();
      requestLogout();
      return;
    }
    // Shown while the server ends the login (a few seconds at most), then the page reloads.
    setLeaving(true);
    void logoutAndReload();
  };

  return (
    <Stack gap="xs">
      <Button color="red" variant="light" loading={leaving} onClick={logout} data-testid="logout">
        {t('logout')}
      </Button>
      <Button
        color="red"
        variant="subtle"
        disabled={leaving}
        onClick={onLogoutAll}
        data-testid="logout-all"
      >
        {t('logoutAll')}
      </Button>
    </Stack>
  );
}
