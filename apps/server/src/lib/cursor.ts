import type { z } from 'zod';
import { invalidField } from './app-error.js';

/**
 * Keyset cursors are opaque to clients: base64url of a JSON array of the last row's sort key.
 * Decoding checks the key against a schema built from the protocol's types (`id`, `epochMs`),
 * so a forged cursor answers 100001 and never reaches a query out of the database's range.
 */
export function encodeCursor(key: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor<T>(cursor: string, schema: z.ZodType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidField('cursor', 'invalid cursor');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidField('cursor', 'invalid cursor');
  return parsed.data;
}
