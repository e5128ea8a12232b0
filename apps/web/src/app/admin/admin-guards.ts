import { redirect, type LoaderFunctionArgs } from 'react-router';
import { readAdminLogin } from '../../features/admin/api/admin-token';
import { adminStringsReady } from '../../features/admin/admin-locale';
import { safeAdminRedirect } from './admin-redirect';

/**
 * Every /admin path but /admin/login needs the administrator's own login (a seat's login,
 * stored apart, does not count); the admin strings are loaded before the area renders.
 */
export async function requireAdmin({ request }: LoaderFunctionArgs) {
  if (!readAdminLogin()) {
    const url = new URL(request.url);
    throw redirect(`/admin/login?redirect=${encodeURIComponent(url.pathname + url.search)}`);
  }
  await adminStringsReady();
  return null;
}

/** /admin/login with a login already stored goes on to the admin area. */
export async function adminLoginLoader({ request }: LoaderFunctionArgs) {
  if (readAdminLogin()) {
    throw redirect(safeAdminRedirect(new URL(request.url).searchParams.get('redirect')));
  }
  await adminStringsReady();
  return null;
}
