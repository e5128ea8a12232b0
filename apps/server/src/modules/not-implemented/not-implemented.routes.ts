import { CALL_PATHS, ERROR_CODES } from '@parley/protocol';
import { AppError } from '../../lib/app-error.js';
import type { CallRegistry } from '../../plugins/calls.js';

/** Calls of later issues: authenticated and validated, then a coded 501001. */
export function notImplementedRoutes(calls: CallRegistry) {
  for (const path of CALL_PATHS) {
    if (calls.isRegistered(path)) continue;
    calls.authed(path, async () => {
      throw new AppError(ERROR_CODES.NOT_IMPLEMENTED);
    });
  }
}
