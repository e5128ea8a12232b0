import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal';
import { createStore, useStore } from '../../../lib/create-store';
import { logoutAndReload } from '../../../lib/login-session';
import { allLocals, localMessages } from '../local-messages.store';

/**
 * Logout clears local storage, unsent messages included (spec section 4): the operator is
 * told first and may stay until they are sent (docs/decisions/2026-11-23-outbox.md).
 */
const warningOpen = createStore(false);

const useUnsentCount = () => useStore(localMessages, (m) => allLocals(m).length);

export const hasUnsentMessages = () => allLocals().length > 0;

/** The user menu's logout: asks first when messages are still unsent. */
export function requestLogout(): void {
  if (hasUnsentMessages()) warningOpen.set(true);
  else void logoutAndReload();
}

export function UnsentLogoutModal() {
  const { t } = useTranslation('outbox');
  const opened = useStore(warningOpen);
  const count = useUnsentCount();
  return (
    <ConfirmModal
      opened={opened}
      title={t('logoutTitle')}
      message={t('logoutWarning', { count })}
      confirmLabel={t('logoutAnyway')}
      danger
      testId="unsent-logout-modal"
      onCancel={() => warningOpen.set(false)}
      onConfirm={() => void logoutAndReload()}
    />
  );
}

/** A line for the login-expired dialog: what logging in again will discard. */
export function UnsentNotice() {
  const { t } = useTranslation('outbox');
  const count = useUnsentCount();
  if (count === 0) return null;
  return (
    <Text size="sm" c="red" data-testid="unsent-notice">
      {t('logoutWarning', { count })}
    </Text>
  );
}
