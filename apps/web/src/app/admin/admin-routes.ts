import type { ComponentType } from 'react';
import type { LoaderFunction } from 'react-router';
import { retrying } from '../../lib/retrying-import';
import type { ADMIN_SECTIONS } from './admin-sections';

/** The admin sections, each a route under /admin with its own chunk. */
export type AdminSection = (typeof ADMIN_SECTIONS)[number] | 'notFound';

interface LazyRoute {
  Component: ComponentType;
  loader?: LoaderFunction;
}

const once = <T>(load: () => Promise<T>) => retrying(load);

const screens: Record<AdminSection, () => Promise<ComponentType>> = {
  overview: once(
    async () => (await import('../../features/admin/components/overview-page')).OverviewPage,
  ),
  seats: once(async () => (await import('../../features/admin/components/seats-page')).SeatsPage),
  accounts: once(async () => (await import('./accounts-route')).AccountsRoute),
  labels: once(
    async () => (await import('../../features/admin/components/labels-section')).LabelsSection,
  ),
  translation: once(
    async () => (await import('../../features/admin/components/translation-page')).TranslationPage,
  ),
  audit: once(async () => (await import('../../features/admin/components/audit-page')).AuditPage),
  notFound: once(
    async () => (await import('../../features/admin/components/admin-not-found')).AdminNotFound,
  ),
};
const guards = once(() => import('./admin-guards'));
const layout = once(() => import('./admin-layout'));
const login = once(() => import('./admin-login-route'));

/**
 * The admin area's routes, fetched as one small module the first time an /admin path matches:
 * the start chunk (which every seat downloads for /login) holds only the route table's few
 * lines and this one import, not a preload list per admin screen.
 */
export const adminRoutes = {
  login: async (): Promise<LazyRoute> => {
    const [route, g] = await Promise.all([login(), guards()]);
    return { Component: route.AdminLoginRoute, loader: g.adminLoginLoader };
  },
  layout: async (): Promise<LazyRoute> => {
    const [route, g] = await Promise.all([layout(), guards()]);
    return { Component: route.AdminLayout, loader: g.requireAdmin };
  },
  screen: async (section: AdminSection): Promise<LazyRoute> => ({
    Component: await screens[section](),
  }),
};
