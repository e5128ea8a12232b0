import { createBrowserRouter, redirect } from 'react-router';
import { AuthPage } from '../features/auth/components/auth-page';
import { LoginPage } from '../features/auth/components/login-page';
import { AddressBookPage } from '../features/address-book/components/address-book-page';
import { ConsolePage } from './console/console-page';
import { HomeLayout } from './console/home-layout';
import { NotFoundPage } from '../features/not-found/components/not-found-page';
import { BanPage } from '../features/tab-lock/components/ban-page';
import { SandboxPage } from '../features/sandbox/components/sandbox-page';
import { RootLayout, type RouteHandle } from './root-layout';
import { logoutOnLogin, requireToken } from './route-guards';

const h = (title: string): RouteHandle => ({ title });

/** Created after i18n and the request layer are set up (the router starts loading at once). */
export const createAppRouter = () =>
  createBrowserRouter([
    // The customer sandbox plays the other party: outside the console's tab lock and token.
    { path: '/sandbox', element: <SandboxPage /> },
    {
      element: <RootLayout />,
      children: [
        { path: '/', loader: () => redirect('/login') },
        { path: '/login', loader: logoutOnLogin, element: <LoginPage />, handle: h('login') },
        { path: '/auth', element: <AuthPage />, handle: h('auth') },
        { path: '/ban-page', element: <BanPage />, handle: h('banPage') },
        {
          id: 'protected',
          loader: requireToken,
          shouldRevalidate: () => true,
          children: [
            {
              path: '/home',
              element: <HomeLayout />,
              handle: h('home'),
              children: [
                { index: true, loader: () => redirect('/home/chat') },
                { path: 'chat', element: <ConsolePage />, handle: h('chat') },
                { path: 'addressBook', element: <AddressBookPage />, handle: h('addressBook') },
              ],
            },
            { path: '*', element: <NotFoundPage />, handle: h('notFound') },
          ],
        },
      ],
    },
  ]);
