import { createStore, useStore } from '../lib/create-store';
import { createExpiredGuard } from '../lib/expired-guard';
import { lazyDialog } from '../lib/lazy-component';
import type { LoginEnded } from '../lib/api-client';

/** The dialog itself, fetched the first time a login expires. */
export const ExpiredDialog = lazyDialog(
  async () => (await import('./expired-dialog')).ExpiredDialog,
);

/** Open, and why the login ended (a frozen seat is told so, not that its login expired). */
const openStore = createStore<LoginEnded | null>(null);
let reason: LoginEnded = 'expired';
const guard = createExpiredGuard(() => openStore.set(reason));
export const expiredGuard = {
  ...guard,
  /** Opens the dialog once; a freeze seen while it is open for an expiry re-words it. */
  trigger(why: LoginEnded = 'expired'): boolean {
    reason = why;
    if (why === 'frozen' && openStore.get() !== null) openStore.set('frozen');
    return guard.trigger();
  },
};

/** The single login-expired (or account-frozen) dialog. */
export function ExpiredModal() {
  const opened = useStore(openStore);
  const dismiss = () => {
    openStore.set(null);
    expiredGuard.reset();
  };
  return (
    <ExpiredDialog opened={opened !== null} frozen={opened === 'frozen'} onDismiss={dismiss} />
  );
}
