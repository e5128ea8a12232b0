import type { ComponentType } from 'react';
import { createBrowserRouter, redirect } from 'react-router';
import { RootLayout, type RouteHandle } from './root-layout';
import { logoutOnLogin, requireToken } from './route-guards';
import { PageLoader } from '../components/page-loader';
import { retrying } from '../lib/retrying-import';
import { ADMIN_SECTIONS } from './admin/admin-sections';

const h = (title: string): RouteHandle => ({ title });
/** The admin area's route module, fetched once when an /admin path first matches. */
const adminRoutes = retrying(() => import('./admin/admin-routes'));

/** A route's screen, fetched when the route first matches (tried again while unreachable). */
const screen = (load: () => Promise<ComponentType>) => {
  const once = retrying(load);
  return async () => ({ Component: await once() });
};

/**
 * Each screen is its own chunk, fetched when its route matches (react-router's `lazy`): /login
 * downloads neither the console nor the sandbox (e2e/specs/first-load.spec.ts). Navigating, the
 * router keeps the current screen until the next one's chunk has arrived (also while the server
 * cannot be reached: it is tried again); on the first load a quiet loader shows meanwhile.
 *
 * Created after i18n and the request layer are set up (the router starts loading at once).
 */
export const createAppRouter = () =>
  createBrowserRouter([
    // The customer sandbox plays the other party: outside the console's tab lock and token.
    {
      path: '/sandbox',
      HydrateFallback: PageLoader,
      lazy: screen(async () => (await import('./sandbox-route')).SandboxRoute),
    },
    // The administrator's console: its own login and token, outside the seat console's tab
    // lock and expired-login dialog; its route module and every screen are chunks of their own.
    {
      path: '/admin/login',
      HydrateFallback: PageLoader,
      lazy: async () => (await adminRoutes()).adminRoutes.login(),
    },
    {
      path: '/admin',
      HydrateFallback: PageLoader,
      shouldRevalidate: () => true,
      lazy: async () => (await adminRoutes()).adminRoutes.layout(),
      children: [
        { index: true, loader: () => redirect('/admin/overview') },
        ...ADMIN_SECTIONS.map((section) => ({
          path: section,
          handle: { adminTitle: section },
          lazy: async () => (await adminRoutes()).adminRoutes.screen(section),
        })),
        {
          path: '*',
          handle: { adminTitle: 'notFound' },
          lazy: async () => (await adminRoutes()).adminRoutes.screen('notFound'),
        },
      ],
    },
    {
      element: <RootLayout />,
      HydrateFallback: PageLoader,
      children: [
        { path: '/', loader: () => redirect('/login') },
        {
          path: '/login',
          loader: logoutOnLogin,
          handle: h('login'),
          lazy: screen(
            async () => (await import('../features/auth/components/login-page')).LoginPage,
          ),
        },
        {
          path: '/auth',
          handle: h('auth'),
          lazy: screen(
            async () => (await import('../features/auth/components/auth-page')).AuthPage,
          ),
        },
        {
          path: '/ban-page',
          handle: h('banPage'),
          lazy: screen(
            async () => (await import('../features/tab-lock/components/ban-page')).BanPage,
          ),
        },
        {
          id: 'protected',
          loader: requireToken,
          shouldRevalidate: () => true,
          children: [
            {
              path: '/home',
              handle: h('home'),
              lazy: screen(async () => (await import('./console/home-layout')).HomeLayout),
              children: [
                { index: true, loader: () => redirect('/home/chat') },
                {
                  path: 'chat',
                  handle: h('chat'),
                  lazy: screen(async () => (await import('./console/console-page')).ConsolePage),
                },
                {
                  path: 'addressBook',
                  handle: h('addressBook'),
                  lazy: screen(
                    async () =>
                      (await import('../features/address-book/components/address-book-page'))
                        .AddressBookPage,
                  ),
                },
              ],
            },
            {
              path: '*',
              handle: h('notFound'),
              lazy: screen(
                async () =>
                  (await import('../features/not-found/components/not-found-page')).NotFoundPage,
              ),
            },
          ],
        },
      ],
    },
  ]);
