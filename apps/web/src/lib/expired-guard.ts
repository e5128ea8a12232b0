import { EXPIRED_MODAL_RESET_MS } from '@parley/protocol';

/** The flag that lets the login-expired dialog open only once (spec section 4). */
export function createExpiredGuard(open: () => void, resetMs = EXPIRED_MODAL_RESET_MS) {
  let active = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    /** Opens the dialog unless it is already guarded; true when it opened. */
    trigger(): boolean {
      if (active) return false;
      active = true;
      open();
      clearTimeout(timer);
      timer = setTimeout(() => {
        active = false;
      }, resetMs);
      return true;
    },
    reset(): void {
      active = false;
      clearTimeout(timer);
    },
    isActive: () => active,
  };
}
