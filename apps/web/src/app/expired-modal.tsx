import { lazy, Suspense } from 'react';
import { createStore, useStore } from '../lib/create-store';
import { createExpiredGuard } from '../lib/expired-guard';
import { useOpenedOnce } from '../lib/use-opened-once';

const ExpiredDialog = lazy(async () => ({
  default: (await import('./expired-dialog')).ExpiredDialog,
}));

const openStore = createStore(false);
export const expiredGuard = createExpiredGuard(() => openStore.set(true));

/** The single login-expired dialog; its code is fetched the first time a login expires. */
export function ExpiredModal() {
  const opened = useStore(openStore);
  const mounted = useOpenedOnce(opened);
  const dismiss = () => {
    openStore.set(false);
    expiredGuard.reset();
  };
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <ExpiredDialog opened={opened} onDismiss={dismiss} />
    </Suspense>
  );
}
