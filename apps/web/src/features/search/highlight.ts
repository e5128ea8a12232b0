export interface TextPart {
  text: string;
  hit: boolean;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Splits a text into the parts that match `word` (case-insensitively, as the server searched)
 * and the parts between, for highlighting. An empty word matches nothing.
 */
export function splitHighlight(text: string, word: string): TextPart[] {
  if (!word) return [{ text, hit: false }];
  const parts: TextPart[] = [];
  const re = new RegExp(escapeRegExp(word), 'giu');
  let last = 0;
  for (const match of text.matchAll(re)) {
    const start = match.index;
    if (start > last) parts.push({ text: text.slice(last, start), hit: false });
    parts.push({ text: match[0], hit: true });
    last = start + match[0].length;
  }
  if (last < text.length || parts.length === 0) parts.push({ text: text.slice(last), hit: false });
  return parts;
}

/**
 * A long message cut to the part around the first hit, so the hit is visible in one line or
 * two of a result list.
 */
export function excerptAround(text: string, word: string, radius = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= radius * 2) return flat;
  const match = word ? new RegExp(escapeRegExp(word), 'iu').exec(flat) : null;
  const at = match?.index ?? 0;
  const start = Math.max(0, at - radius);
  const end = Math.min(flat.length, at + (match?.[0].length ?? 0) + radius);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}
