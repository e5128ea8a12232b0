import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { callAdmin } from '../api/admin-client';
import { clearAdminLogin, readAdminToken } from '../api/admin-token';

/** Ends the admin login on the server (best effort: leaving never hangs) and here. */
export function AdminLogoutButton() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const client = useQueryClient();
  const logout = async () => {
    if (readAdminToken()) {
      await callAdmin(
        '/v1/admin/logout',
        {},
        { notify: false, signal: AbortSignal.timeout(3000) },
      ).catch(() => undefined);
    }
    clearAdminLogin();
    client.removeQueries({ queryKey: ['admin'] });
    navigate('/admin/login', { replace: true });
  };
  return (
    <Button variant="default" size="sm" onClick={() => void logout()} data-testid="admin-logout">
      {t('logout')}
    </Button>
  );
}
