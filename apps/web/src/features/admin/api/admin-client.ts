import { notifications } from '@mantine/notifications';
import {
  ERROR_CODES,
  REQUEST_TIMEOUT_MS,
  type AdminCallInput,
  type AdminCallPath,
  type AdminCallResponse,
} from '@parley/protocol';
import { ApiError, classifyEnvelope, errorText, stripEmpty } from '../../../lib/api-core';
import { translateCode } from '../../../lib/i18n';
import { adminExpiredStore, clearAdminLogin, readAdminToken } from './admin-token';

export interface AdminCallOptions {
  /** Show the error toast (default true); forms that show the error by a field pass false. */
  notify?: boolean;
  signal?: AbortSignal;
}

function toastError(message: string, code: string): void {
  notifications.show({ id: `admin-error-${code}`, color: 'red', message, autoClose: 5000 });
}

/** The admin login ended (expired, revoked, or a seat token): back to /admin/login. */
export function adminLoginEnded(): void {
  clearAdminLogin();
  adminExpiredStore.set(true);
}

/**
 * POSTs one administrator call (ADMIN_CALLS) with the admin token and returns its `data`, or
 * throws an ApiError whose message is the code's translation. Same envelope and codes as the
 * seat's calls (lib/api-client.ts), but its own token and its own "login ended" path.
 */
export async function callAdmin<P extends AdminCallPath>(
  path: P,
  body: AdminCallInput<P>,
  options: AdminCallOptions = {},
): Promise<AdminCallResponse<P>> {
  const notify = options.notify ?? true;
  const signal = options.signal
    ? AbortSignal.any([options.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)])
    : AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = readAdminToken();
  if (token) headers.Authorization = token;

  let decoded: unknown;
  try {
    const res = await fetch(path, {
      method: 'POST',
      headers,
      body: JSON.stringify(stripEmpty(body ?? {})),
      signal,
    });
    const text = await res.text();
    try {
      decoded = JSON.parse(text);
    } catch {
      decoded = null;
    }
  } catch (err) {
    if (options.signal?.aborted) throw err;
    const busy = translateCode(ERROR_CODES.SERVER_BUSY) || 'Server busy';
    if (notify) toastError(busy, ERROR_CODES.SERVER_BUSY);
    throw new ApiError(ERROR_CODES.SERVER_BUSY, busy);
  }

  const outcome = classifyEnvelope<AdminCallResponse<P>>(decoded);
  if (outcome.kind === 'success') return outcome.data;
  if (outcome.kind === 'expired') {
    // A wrong password on the login form is not an expiry; any other call is.
    if (path !== '/v1/admin/login') adminLoginEnded();
    const message = translateCode(ERROR_CODES.TOKEN_EXPIRED) || 'Token expired';
    throw new ApiError(ERROR_CODES.TOKEN_EXPIRED, message);
  }
  const message = errorText(outcome.code, outcome.msg, translateCode);
  if (notify) toastError(message, outcome.code);
  throw new ApiError(outcome.code, message, outcome.data);
}
