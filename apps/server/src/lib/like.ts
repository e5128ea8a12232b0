/** Escapes LIKE's wildcards (and the escape character) so a user's text matches literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `%text%` for a literal substring match (used with `escape '\'`). */
export function containsPattern(value: string): string {
  return `%${escapeLike(value)}%`;
}
