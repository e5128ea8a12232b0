import { Alert } from '@mantine/core';
import type { ActionError } from '../hooks/use-admin-action';

/** A refused action's translated message, read out when it appears. */
export function ActionAlert({ error }: { error: ActionError | null }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert" data-testid="admin-action-error" data-code={error.code}>
      {error.message}
    </Alert>
  );
}
