import './app/mantine-styles';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { notifications } from '@mantine/notifications';
import { configureApi } from './lib/api-client';
import { initI18n, translateCode } from './lib/i18n';
import { onStorageClear } from './lib/login-session';
import { ensureTranslateDefaults } from './lib/storage';
import { yieldToBrowser } from './lib/when-idle';
import { AppProviders } from './app/providers';
import { expiredGuard } from './app/expired-modal';
import { createAppRouter } from './app/router';
import { clearStoredOutboxes } from './features/messages/outbox/outbox-keys';
import { clearSoundMuted } from './features/realtime/sound-muted';

const i18nReady = initI18n();
ensureTranslateDefaults();
// Logout clears what the console keeps in local storage even when this page has not loaded the
// console's code (a visit to /login logs out first).
onStorageClear(clearStoredOutboxes);
onStorageClear(clearSoundMuted);
onStorageClear(() => void import('./lib/push-device').then((m) => m.forgetPushSubscription()));
configureApi({
  onExpired: (reason) => void expiredGuard.trigger(reason),
  onError: (message, code) =>
    notifications.show({ id: `error-${code}`, color: 'red', message, autoClose: 4000 }),
  translateCode,
});

// The first screen's code and the operator's language arrive side by side. In a task of its
// own: the start's first read of local storage (opening it, ~20 ms in a new profile) and the
// router's first match made one task over 50 ms on a loaded machine (issue 25).
await yieldToBrowser();
const router = createAppRouter();
const root = document.getElementById('root');
if (!root) throw new Error('#root missing');
await i18nReady;
createRoot(root).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
