import { ERROR_CODES, ERROR_MESSAGES } from '@parley/protocol';
import { AppError, invalidField } from './app-error.js';

interface Issue {
  path: PropertyKey[];
  message: string;
  code?: string;
}
interface Schema {
  safeParse(input: unknown): { success: boolean; data?: unknown; error?: { issues: Issue[] } };
}

export interface ParseOptions {
  /**
   * Phone fields whose malformed value answers 400005 "Invalid phone number format" instead of
   * 100001 (a missing or non-string value stays 100001).
   */
  phoneFormatFields?: readonly string[];
}

/**
 * The path of the first string (key or value) holding a character a database refuses:
 * PostgreSQL stores no NUL in text or JSON, and SQLite's full-text query syntax breaks on it.
 */
function refusedTextPath(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || 'body' : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, child] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, 'key'].join('.');
    const found = refusedTextPath(child, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Parse a body with its protocol schema; 100001 names the first offending field. Every input
 * of the service passes here, so text no database can store is refused here, once.
 */
export function parseBody<T>(schema: Schema, body: unknown, options: ParseOptions = {}): T {
  const refused = refusedTextPath(body);
  if (refused !== null) throw invalidField(refused, 'NUL characters are not allowed');
  const result = schema.safeParse(body ?? {});
  if (result.success || !result.error) return result.data as T;
  const fields = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || 'body',
    message: issue.message,
  }));
  const phoneIssue = result.error.issues.find(
    (issue) =>
      issue.path.length === 1 &&
      options.phoneFormatFields?.includes(String(issue.path[0])) &&
      issue.code !== 'invalid_type',
  );
  if (phoneIssue) {
    throw new AppError(
      ERROR_CODES.INVALID_PHONE_FORMAT,
      `${ERROR_MESSAGES['400005']}: ${String(phoneIssue.path[0])}`,
      { fields },
    );
  }
  throw new AppError(
    ERROR_CODES.PARAMETER_ERROR,
    `${ERROR_MESSAGES['100001']}: ${fields[0]?.path ?? 'body'}`,
    { fields },
  );
}
