import { ERROR_CODES, SUCCESS_CODE, isSuccessCode, type ApiEnvelope } from '@parley/protocol';

/** Removes '' / null / undefined fields (recursively through plain objects). */
export function stripEmpty<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => stripEmpty(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === '' || v === null || v === undefined) continue;
    out[k] = stripEmpty(v);
  }
  return out as T;
}

/** Query string of the non-empty params ('' / null / undefined are left out). */
export function toQueryString(params: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(stripEmpty(params))) q.append(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export type Outcome<T> =
  | { kind: 'success'; data: T }
  | { kind: 'expired' }
  | { kind: 'error'; code: string; msg: string; data: unknown };

/** Classifies a decoded `{ code, msg, data }` answer. */
export function classifyEnvelope<T>(body: unknown): Outcome<T> {
  if (!body || typeof body !== 'object' || !('code' in body)) {
    return { kind: 'error', code: ERROR_CODES.SERVER_BUSY, msg: '', data: null };
  }
  const env = body as ApiEnvelope<T> & { code: unknown };
  if (isSuccessCode(env.code)) return { kind: 'success', data: env.data };
  const code = String(env.code);
  if (code === ERROR_CODES.TOKEN_EXPIRED) return { kind: 'expired' };
  return { kind: 'error', code, msg: typeof env.msg === 'string' ? env.msg : '', data: env.data };
}

/**
 * The text to show for an error code: the translation of the code when there is one,
 * else the server's message, else the server-busy message.
 */
export function errorText(
  code: string,
  serverMsg: string,
  translate: (key: string) => string | undefined,
): string {
  return translate(code) || serverMsg || translate(ERROR_CODES.SERVER_BUSY) || 'Server busy';
}

export class ApiError extends Error {
  readonly code: string;
  readonly data: unknown;
  constructor(code: string, message: string, data: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.data = data;
  }
}

export { SUCCESS_CODE };
