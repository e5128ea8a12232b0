/**
 * The admin console's sections, in the navigation's order: each a route under /admin (router),
 * an entry of the navigation (admin-layout) and a screen of its own (admin-routes). Its own
 * small module: the router, in the start chunk, needs only this list.
 */
export const ADMIN_SECTIONS = [
  'overview',
  'seats',
  'accounts',
  'labels',
  'translation',
  'audit',
] as const;
