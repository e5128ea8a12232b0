import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { AdminChangeScope } from '@parley/protocol';
import { ApiError } from '../../../lib/api-core';
import { refetchScopes } from '../api/admin-queries';

export interface ActionError {
  code: string;
  message: string;
  /** The request fields the server named (100001's `data.fields`). */
  fields: string[];
}

function toActionError(err: unknown): ActionError {
  if (err instanceof ApiError) {
    const data = err.data as { fields?: { path?: unknown }[] } | null;
    const fields = (data?.fields ?? []).map((f) => String(f.path ?? ''));
    return { code: err.code, message: err.message, fields };
  }
  return { code: '', message: String(err), fields: [] };
}

/**
 * One administrator action from a dialog: runs it, keeps its coded error (translated) for the
 * dialog to show by the field or above the buttons, and on success refetches the lists it
 * touched (the push socket's hint follows for the other consoles).
 */
export function useAdminAction<A extends unknown[], R>(
  run: (...args: A) => Promise<R>,
  scopes: readonly AdminChangeScope[],
) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ActionError | null>(null);
  const submit = async (...args: A): Promise<R | undefined> => {
    setBusy(true);
    setError(null);
    try {
      const result = await run(...args);
      refetchScopes(client, scopes);
      return result;
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return undefined;
      setError(toActionError(err));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { submit, busy, error, clearError: () => setError(null) };
}
