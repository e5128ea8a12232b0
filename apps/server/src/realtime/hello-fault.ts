import { ERROR_CODES } from '@parley/protocol';
import { AppError } from '../lib/app-error.js';
import { isDatabaseUnavailable } from '../lib/db-errors.js';

/**
 * A hello whose token check failed for another reason than the token (the database away, a
 * fault): the error frame and the close that make the client try again, never a sign-out.
 */
export function helloFault(err: unknown) {
  const busy = isDatabaseUnavailable(err);
  const coded = new AppError(busy ? ERROR_CODES.SERVER_BUSY : ERROR_CODES.SERVICE_ERROR);
  return {
    frame: { kind: 'error' as const, code: coded.code, msg: coded.message },
    close: busy ? 1013 : 1011,
    reason: busy ? 'try again later' : 'server error',
  };
}
