/**
 * Only the /admin/... paths, so a crafted redirect cannot leave the admin area. A module of its
 * own: the login screen needs it and admin-guards.ts is loaded only by import() (a static import
 * of the guards from the screen made that import() ineffective, and the build warned).
 */
export function safeAdminRedirect(target: string | null): string {
  if (!target || !target.startsWith('/admin/') || target.startsWith('/admin/login')) {
    return '/admin/overview';
  }
  return target.startsWith('//') ? '/admin/overview' : target;
}
