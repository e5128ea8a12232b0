import { ERROR_CODES, ERROR_MESSAGES, type ErrorCode } from '@parley/protocol';

/**
 * HTTP status that goes with each code where HTTP is itself the protocol: the platform's signed
 * API (it retries 5xx), media GETs (`<img>` reads 404), unknown paths. A call of the console's
 * protocol answers 200 whatever its code (docs/api.md, "HTTP status").
 */
const HTTP_STATUS: Partial<Record<ErrorCode, number>> = {
  [ERROR_CODES.PARAMETER_ERROR]: 400,
  [ERROR_CODES.PASSWORD_ERROR]: 401,
  [ERROR_CODES.USER_NOT_FOUND]: 401,
  [ERROR_CODES.ACCOUNT_FROZEN]: 403,
  [ERROR_CODES.INVALID_USER]: 401,
  [ERROR_CODES.DATA_NOT_FOUND]: 404,
  [ERROR_CODES.TOKEN_EXPIRED]: 401,
  [ERROR_CODES.PERMISSION_FAILED]: 403,
  [ERROR_CODES.SERVICE_ERROR]: 500,
  [ERROR_CODES.DATA_EXISTS]: 409,
  [ERROR_CODES.CHAT_EXISTS]: 409,
  [ERROR_CODES.OPERATION_LIMIT]: 429,
  [ERROR_CODES.SERVER_BUSY]: 503,
  [ERROR_CODES.ROUTE_NOT_FOUND]: 404,
  [ERROR_CODES.NOT_IMPLEMENTED]: 501,
  [ERROR_CODES.MEDIA_STORAGE_FULL]: 507,
  [ERROR_CODES.MEDIA_STORAGE_READ_ONLY]: 507,
};

export function httpStatusOf(code: ErrorCode): number {
  return HTTP_STATUS[code] ?? 400;
}

/** A rule broke: answered as `{ code, msg, data }`, never with a stack. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string = ERROR_MESSAGES[code],
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

export const notFound = () => new AppError(ERROR_CODES.DATA_NOT_FOUND);
export const forbidden = () => new AppError(ERROR_CODES.PERMISSION_FAILED);

/** 100001 naming one field, shaped like the schema's validation answers. */
export function invalidField(path: string, message: string): AppError {
  return new AppError(ERROR_CODES.PARAMETER_ERROR, `${ERROR_MESSAGES['100001']}: ${path}`, {
    fields: [{ path, message }],
  });
}
