import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { ERROR_CODES } from '@parley/protocol';
import { ApiError } from '../../../lib/api-core';
import { tokenLogin } from '../api/auth-api';

export type HandOff =
  | { state: 'checking' }
  /** The link's token is missing, malformed, unknown, expired or ended. */
  | { state: 'invalid' }
  /** The server could not tell (unreachable, busy): worth trying again. */
  | { state: 'failed'; reason: string };

/** Codes meaning the link itself is no good (not a passing failure). */
const INVALID_LINK = new Set<string>([ERROR_CODES.TOKEN_EXPIRED, ERROR_CODES.PARAMETER_ERROR]);

/**
 * The /auth hand-off: token_login with the link's token, then on to `target`; otherwise the
 * reason, so the page can say it instead of dropping the operator on the login screen.
 */
export function useTokenHandOff(token: string, target: string) {
  const navigate = useNavigate();
  const [attempt, setAttempt] = useState(0);
  // The outcome of one attempt with one token; anything else is still being checked.
  const key = `${attempt}:${token}`;
  const [result, setResult] = useState<{ key: string; outcome: HandOff } | null>(null);
  const missing = !token.trim();

  useEffect(() => {
    if (missing) return;
    let cancelled = false;
    tokenLogin(token)
      .then(() => !cancelled && navigate(target, { replace: true }))
      .catch((err: unknown) => {
        if (cancelled) return;
        const outcome: HandOff =
          err instanceof ApiError && INVALID_LINK.has(err.code)
            ? { state: 'invalid' }
            : { state: 'failed', reason: err instanceof Error ? err.message : '' };
        setResult({ key, outcome });
      });
    return () => {
      cancelled = true;
    };
  }, [key, missing, token, target, navigate]);

  const outcome: HandOff = missing
    ? { state: 'invalid' }
    : result?.key === key
      ? result.outcome
      : { state: 'checking' };
  return { outcome, retry: () => setAttempt((n) => n + 1) };
}
