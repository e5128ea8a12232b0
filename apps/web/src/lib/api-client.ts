import {
  ERROR_CODES,
  REQUEST_TIMEOUT_MS,
  type CallInput,
  type CallPath,
  type CallResponse,
} from '@parley/protocol';
import { ApiError, classifyEnvelope, errorText, stripEmpty } from './api-core';
import { readToken } from './storage';

/** Why a signed-in console's login ended: expired (400002) or its seat frozen (200002). */
export type LoginEnded = 'expired' | 'frozen';

export interface ApiHooks {
  /** Opens the single "login expired" confirmation (or "account frozen", for a frozen seat). */
  onExpired: (reason: LoginEnded) => void;
  /** Shows an error toast. */
  onError: (message: string, code: string) => void;
  /** Translates an error code (undefined when there is no translation). */
  translateCode: (code: string) => string | undefined;
}

let hooks: ApiHooks = {
  onExpired: () => undefined,
  onError: () => undefined,
  translateCode: () => undefined,
};

export function configureApi(next: ApiHooks): void {
  hooks = next;
}

/**
 * Turns a decoded answer into its data, or raises the ApiError after the usual side effects
 * (the expired-login dialog, the error toast). Shared by JSON calls and uploads.
 */
export function settle<T>(decoded: unknown, notify: boolean, expiredDialog = true): T {
  const outcome = classifyEnvelope<T>(decoded);
  if (outcome.kind === 'success') return outcome.data;
  if (outcome.kind === 'expired') {
    if (expiredDialog) hooks.onExpired('expired');
    throw new ApiError(ERROR_CODES.TOKEN_EXPIRED, 'Token expired');
  }
  const message = errorText(outcome.code, outcome.msg, hooks.translateCode);
  // A signed-in call of a frozen seat: the same single dialog, saying the account is frozen.
  if (outcome.code === ERROR_CODES.ACCOUNT_FROZEN && expiredDialog) {
    hooks.onExpired('frozen');
    throw new ApiError(outcome.code, message, outcome.data);
  }
  if (notify) hooks.onError(message, outcome.code);
  throw new ApiError(outcome.code, message, outcome.data);
}

/** The network failed or timed out: "Server busy" (500005). */
export function networkError(notify: boolean): ApiError {
  const busy = hooks.translateCode(ERROR_CODES.SERVER_BUSY) || 'Server busy';
  if (notify) hooks.onError(busy, ERROR_CODES.SERVER_BUSY);
  return new ApiError(ERROR_CODES.SERVER_BUSY, busy);
}

/** The decoded body, or null when it is not JSON (a proxy's error page: no coded answer). */
function parseAnswer(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** What a cancelled call rejects with: a DOMException 'AbortError', as fetch itself does. */
function abortError(err: unknown): DOMException {
  if (err instanceof DOMException && err.name === 'AbortError') return err;
  return new DOMException('The request was cancelled', 'AbortError');
}

/** The calls made without a login (CALLS' `auth: false`, not imported: it holds every schema). */
const SIGN_IN_PATHS: ReadonlySet<string> = new Set([
  '/v1/seat/chat/login',
  '/v1/seat/chat/token_login',
]);

export interface CallOptions {
  /** Show the generic error toast (default true). */
  notify?: boolean;
  /** Open the login-expired dialog on 400002 (default true); false: only throw (logout, /auth). */
  expiredDialog?: boolean;
  signal?: AbortSignal;
}

/** POSTs one call of the protocol and returns its `data`, or throws an ApiError. */
export async function callApi<P extends CallPath>(
  path: P,
  body: CallInput<P>,
  options: CallOptions = {},
): Promise<CallResponse<P>> {
  const notify = options.notify ?? true;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const onOuterAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });

  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = readToken();
  if (token) headers.Authorization = token;

  let decoded: unknown;
  try {
    const res = await fetch(path, {
      method: 'POST',
      headers,
      body: JSON.stringify(stripEmpty(body ?? {})),
      signal: controller.signal,
    });
    // The body is part of the answer: a cancel or a dropped connection while it arrives rejects
    // here like one before the headers (res.json().catch(() => null) read a cancel as busy).
    decoded = parseAnswer(await res.text());
  } catch (err) {
    // Cancelled by the caller (a superseded query, a chat left): the operator never sees it.
    if (options.signal?.aborted && !timedOut) throw abortError(err);
    throw networkError(notify);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
  // Login answers 200002 itself (its form says so): only signed-in calls open the dialog.
  const signedIn = !SIGN_IN_PATHS.has(path);
  return settle<CallResponse<P>>(decoded, notify, signedIn && (options.expiredDialog ?? true));
}
