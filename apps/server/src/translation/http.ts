import { setTimeout as sleep } from 'node:timers/promises';
import { TranslationProviderError } from './provider.js';

export interface HttpPolicy {
  timeoutMs: number;
  /** Further attempts after a 429 or 5xx answer. */
  retries: number;
  /** Back-off before retry n (0-based) is retryDelayMs * 2^n, or the server's Retry-After. */
  retryDelayMs: number;
}

export interface HttpAnswer {
  status: number;
  body: string;
}

/** Retry-After is honoured up to this; a longer wait is not worth holding the operator. */
const MAX_RETRY_AFTER_MS = 5_000;

function retryable(status: number): boolean {
  return status === 429 || status >= 500;
}

function delayBefore(retry: number, policy: HttpPolicy, retryAfter: string | null): number {
  const seconds = retryAfter === null ? NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  return policy.retryDelayMs * 2 ** retry;
}

/**
 * One HTTP request to an engine, retried with back-off (bounded by `policy.retries`) while it
 * answers 429 or 5xx. A network failure or time-out is not retried: the next engine is tried
 * instead. The last answer is returned whatever its status.
 */
export async function requestWithRetry(
  engine: string,
  url: string,
  init: RequestInit,
  policy: HttpPolicy,
  signal?: AbortSignal,
): Promise<HttpAnswer> {
  for (let attempt = 0; ; attempt++) {
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    let res: Response;
    let body: string;
    try {
      res = await fetch(url, {
        ...init,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      body = await res.text();
    } catch (err) {
      const why = timeout.aborted
        ? `no answer within ${policy.timeoutMs} ms`
        : signal?.aborted
          ? 'gave up: the request took too long'
          : describe(err);
      throw new TranslationProviderError(engine, 'unavailable', why);
    }
    if (!retryable(res.status) || attempt >= policy.retries) return { status: res.status, body };
    try {
      await sleep(delayBefore(attempt, policy, res.headers.get('retry-after')), undefined, {
        signal,
      });
    } catch {
      throw new TranslationProviderError(
        engine,
        'unavailable',
        'gave up: the request took too long',
      );
    }
  }
}

/** fetch says "fetch failed"; the cause says why (ECONNREFUSED, ENOTFOUND...). */
function describe(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  return [e.message, e.cause?.code ?? e.cause?.message].filter(Boolean).join(': ');
}

/** The reason for a final non-2xx answer that every engine shares. */
export function failureOf(engine: string, status: number, body: string): TranslationProviderError {
  const detail = `HTTP ${status}${body ? `: ${body.slice(0, 200)}` : ''}`;
  if (status === 429) return new TranslationProviderError(engine, 'rate_limited', detail);
  if (status === 401 || status === 403) {
    return new TranslationProviderError(engine, 'auth_failed', detail);
  }
  if (status >= 500) return new TranslationProviderError(engine, 'unavailable', detail);
  return new TranslationProviderError(engine, 'bad_response', detail);
}

export function parseJson(engine: string, body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new TranslationProviderError(engine, 'bad_response', 'answer is not JSON');
  }
}
