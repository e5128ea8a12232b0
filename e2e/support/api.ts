import {
  SUCCESS_CODE,
  type AdminCallInput,
  type AdminCallPath,
  type AdminCallResponse,
  type ApiEnvelope,
  type CallInput,
  type CallPath,
  type CallResponse,
} from '@parley/protocol';

/** A failed call: the server answered with an error code. */
export class ApiError extends Error {
  constructor(
    readonly path: string,
    readonly code: string,
    msg: string,
  ) {
    super(`${path} answered ${code}: ${msg}`);
  }
}

/**
 * Calls the seat service directly (outside the browser). Specs use it only to discover the
 * state they then drive and check through the UI (e.g. which chat has unread messages), or to
 * obtain a real token for the /auth hand-off.
 */
export async function call<P extends CallPath>(
  baseURL: string,
  path: P,
  body: CallInput<P>,
  token?: string,
): Promise<CallResponse<P>> {
  return post(baseURL, path, body, token) as Promise<CallResponse<P>>;
}

/** An administrator's call, for a spec's set-up (its token from adminToken in admin.ts). */
export async function adminCall<P extends AdminCallPath>(
  baseURL: string,
  path: P,
  body: AdminCallInput<P>,
  token?: string,
): Promise<AdminCallResponse<P>> {
  return post(baseURL, path, body, token) as Promise<AdminCallResponse<P>>;
}

async function post(baseURL: string, path: string, body: unknown, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = token;
  const res = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  const envelope = (await res.json()) as ApiEnvelope<unknown>;
  if (envelope.code !== SUCCESS_CODE) throw new ApiError(path, envelope.code, envelope.msg);
  return envelope.data;
}

export async function apiLogin(baseURL: string, account: string, password: string) {
  return call(baseURL, '/v1/seat/chat/login', { account, password });
}
