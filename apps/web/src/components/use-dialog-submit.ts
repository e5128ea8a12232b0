import { useState } from 'react';
import { ApiError } from '../lib/api-core';

/**
 * A form dialog's submit (components/form-dialog.tsx): busy while it runs; the server's refusal
 * shown as the field's error in its own translated words, anything else as `failed`.
 */
export function useDialogSubmit(failed: string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : failed);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
