import { lazyDialog } from '../lib/lazy-component';
import type { ConfirmProps } from './confirm-dialog';

/**
 * A confirmation dialog with the `confirm-ok` / `confirm-cancel` buttons of the UI contract,
 * fetched the first time it opens.
 */
export const ConfirmModal = lazyDialog<ConfirmProps>(
  async () => (await import('./confirm-dialog')).ConfirmDialog,
);
