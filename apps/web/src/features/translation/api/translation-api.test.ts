import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@parley/protocol';
import { ApiError } from '../../../lib/api-core';
import { translationProblem } from './translation-api';

const failure = (message: string, reason: string) => ({ message, reason, attempts: [] });

describe('translationProblem', () => {
  it('says what the server named: "Translation failed" or "Translation error"', () => {
    expect(
      translationProblem(
        new ApiError(ERROR_CODES.SERVER_BUSY, 'x', failure('translationFailed', 'quota_exceeded')),
      ),
    ).toBe('translationFailed');
    expect(
      translationProblem(
        new ApiError(ERROR_CODES.SERVICE_ERROR, 'x', failure('translationError', 'not_configured')),
      ),
    ).toBe('translationError');
  });

  it('an unreachable server failed for now; any other refusal is an error', () => {
    expect(translationProblem(new ApiError(ERROR_CODES.SERVER_BUSY, 'busy'))).toBe(
      'translationFailed',
    );
    expect(translationProblem(new ApiError(ERROR_CODES.PARAMETER_ERROR, 'bad'))).toBe(
      'translationError',
    );
    expect(translationProblem(new Error('boom'))).toBe('translationError');
  });

  it('nothing to say for an abort or an expired login (it has its own dialog)', () => {
    expect(translationProblem(new DOMException('aborted', 'AbortError'))).toBeNull();
    expect(translationProblem(new ApiError(ERROR_CODES.TOKEN_EXPIRED, 'expired'))).toBeNull();
  });
});
