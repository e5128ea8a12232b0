import '../../features/admin/mantine-admin-styles';
import { AdminLoginPage } from '../../features/admin/components/admin-login-page';
import { safeAdminRedirect } from './admin-redirect';

/** /admin/login, kept inside the admin area when it goes on. */
export function AdminLoginRoute() {
  return <AdminLoginPage next={safeAdminRedirect} />;
}
