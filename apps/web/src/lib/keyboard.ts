/** True while the operator types in a field: no shortcut of the console fires then. */
export function isTyping(e: KeyboardEvent): boolean {
  const el = e.target instanceof HTMLElement ? e.target : null;
  if (!el) return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

/** A dialog (Mantine modal or drawer) is open: its own keys win. */
export function dialogOpen(): boolean {
  return document.querySelector('[role="dialog"][aria-modal="true"]') !== null;
}

/** The composer's text box (composer.tsx gives it this id). */
export const COMPOSER_ID = 'composer-input';

export function focusComposer(): boolean {
  const input = document.getElementById(COMPOSER_ID);
  if (!(input instanceof HTMLTextAreaElement)) return false;
  input.focus();
  return true;
}

/** The shortcuts, as the help dialog lists them (keys as shown, the label's key). */
export const SHORTCUTS = [
  { keys: ['Alt', '↓'], label: 'nextChat' },
  { keys: ['Alt', '↑'], label: 'previousChat' },
  { keys: ['Alt', 'Shift', '↓'], label: 'nextUnread' },
  { keys: ['R'], label: 'focusComposer' },
  { keys: ['Ctrl/⌘', 'K'], label: 'search' },
  { keys: ['?'], label: 'help' },
] as const;
