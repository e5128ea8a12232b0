import {
  SUCCESS_CODE,
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
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = token;
  const res = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  const envelope = (await res.json()) as ApiEnvelope<CallResponse<P>>;
  if (envelope.code !== SUCCESS_CODE) throw new ApiError(path, envelope.code, envelope.msg);
  return envelope.data;
}

export async function apiLogin(baseURL: string, account: string, password: string) {
  return call(baseURL, '/v1/seat/chat/login', { account, password });
}
