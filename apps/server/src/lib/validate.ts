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

/** A place in the body: its key and its parent, so a path is spelled only when one is refused. */
interface Place {
  key: string | number;
  parent: Place | null;
}

function pathOf(place: Place | null, last?: string): string {
  const keys = last === undefined ? [] : [last];
  for (let at = place; at; at = at.parent) keys.push(String(at.key));
  return keys.reverse().join('.');
}

const NUL = '\u0000';

/**
 * The path of the first string (key or value) holding a character a database refuses:
 * PostgreSQL stores no NUL in text or JSON, and SQLite's full-text query syntax breaks on it.
 * Iterative, each value visited once: linear in the body however deep it nests.
 */
function refusedTextPath(body: unknown): string | null {
  // Two stacks side by side: a value, and the field it sits in (null: the body itself).
  const values: unknown[] = [body];
  const places: Array<Place | null> = [null];
  while (values.length > 0) {
    const value = values.pop();
    const place = places.pop() ?? null;
    if (place && typeof place.key === 'string' && place.key.includes(NUL)) {
      return pathOf(place.parent, 'key');
    }
    if (typeof value === 'string') {
      if (value.includes(NUL)) return pathOf(place) || 'body';
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    // Pushed last to first: fields are looked at in order, as a recursive walk would.
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const child: unknown = value[i];
        // An item's key is its index: only strings and containers can hold a NUL.
        if (typeof child === 'string' || (child !== null && typeof child === 'object')) {
          values.push(child);
          places.push({ key: i, parent: place });
        }
      }
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      values.push((value as Record<string, unknown>)[keys[i]!]);
      places.push({ key: keys[i]!, parent: place });
    }
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
