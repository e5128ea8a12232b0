import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { notifications } from '@mantine/notifications';
import { configureApi } from './lib/api-client';
import { initI18n, translateCode } from './lib/i18n';
import { onLogout } from './lib/login-session';
import { ensureTranslateDefaults } from './lib/storage';
import { queryClient } from './lib/query-client';
import { AppProviders } from './app/providers';
import { expiredGuard } from './app/expired-modal';
import { createAppRouter } from './app/router';

initI18n();
ensureTranslateDefaults();
onLogout(() => queryClient.clear());
configureApi({
  onExpired: () => void expiredGuard.trigger(),
  onError: (message, code) =>
    notifications.show({ id: `error-${code}`, color: 'red', message, autoClose: 4000 }),
  translateCode,
});

const router = createAppRouter();
const root = document.getElementById('root');
if (!root) throw new Error('#root missing');
createRoot(root).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
