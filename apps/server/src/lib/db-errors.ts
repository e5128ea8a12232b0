/** A unique-constraint violation on SQLite or PostgreSQL. */
export function isUniqueViolation(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** A foreign key that points nowhere (e.g. a message for a chat deleted meanwhile). */
export function isForeignKeyViolation(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as { code?: unknown }).code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * The database could not be reached: its server stopped or restarted (57P01–57P03), the
 * connection broke or was refused, or a connection could not be had in time. What was asked
 * may be asked again once it is back (500005, "database unavailable"), unlike a fault.
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
/** pg's own errors of a lost or refused connection carry no code, only these words. */
const UNREACHABLE_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|timeout expired|Query read timeout)/;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const { code, message, cause, errors } = e as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    // A client that went away mid-request (Node's "aborted", ECONNRESET) is not the database.
    if (message === 'aborted') return false;
    // Class 08: connection exceptions.
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) {
      return true;
    }
    if (typeof message === 'string' && UNREACHABLE_MESSAGE.test(message)) return true;
    // A refused connection to every address of a host name (Node's AggregateError).
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    e = cause;
  }
  return false;
}
