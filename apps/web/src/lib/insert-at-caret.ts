/**
 * The text with `insert` replacing the selection [start, end), and the caret just after it.
 * Positions are clamped to the text, so a stale selection never throws.
 */
export function insertAt(
  text: string,
  start: number,
  end: number,
  insert: string,
): { text: string; caret: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + insert + text.slice(to), caret: from + insert.length };
}

/**
 * Inserts into a textarea controlled by React state at its caret (or over its selection), then
 * puts the focus and the caret back just after the inserted text.
 */
export function insertIntoTextarea(
  el: HTMLTextAreaElement | null,
  text: string,
  setText: (next: string) => void,
  insert: string,
  maxLength?: number,
): void {
  const start = el?.selectionStart ?? text.length;
  const end = el?.selectionEnd ?? text.length;
  const next = insertAt(text, start, end, insert);
  if (maxLength !== undefined && next.text.length > maxLength) return;
  setText(next.text);
  if (!el) return;
  // After React has rendered the new value.
  requestAnimationFrame(() => {
    el.focus();
    el.setSelectionRange(next.caret, next.caret);
  });
}
