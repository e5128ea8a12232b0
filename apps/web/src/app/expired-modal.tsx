import { createStore, useStore } from '../lib/create-store';
import { createExpiredGuard } from '../lib/expired-guard';
import { lazyDialog } from '../lib/lazy-component';

/** The dialog itself, fetched the first time a login expires. */
export const ExpiredDialog = lazyDialog(
  async () => (await import('./expired-dialog')).ExpiredDialog,
);

const openStore = createStore(false);
export const expiredGuard = createExpiredGuard(() => openStore.set(true));

/** The single login-expired dialog. */
export function ExpiredModal() {
  const opened = useStore(openStore);
  const dismiss = () => {
    openStore.set(false);
    expiredGuard.reset();
  };
  return <ExpiredDialog opened={opened} onDismiss={dismiss} />;
}
