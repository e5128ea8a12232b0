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

/** How long a focus asked for before the composer exists still counts (ms). */
const FOCUS_REQUEST_MS = 2_000;
let focusRequestedAt = -Infinity;

/**
 * The composer was asked for while a just-opened chat still builds it (its body renders
 * deferred): it takes the focus when it mounts, if that is soon.
 */
export function requestComposerFocus(): void {
  focusRequestedAt = performance.now();
}

/** Answers (once) whether the composer that mounts now was asked for. */
export function takeComposerFocusRequest(): boolean {
  const asked = performance.now() - focusRequestedAt < FOCUS_REQUEST_MS;
  focusRequestedAt = -Infinity;
  return asked;
}

/** The shortcuts, as the help dialog lists them (keys as shown, the label's key). */
export const SHORTCUTS = [
  { keys: ['Alt', '↓'], label: 'nextChat' },
  { keys: ['Alt', '↑'], label: 'previousChat' },
  { keys: ['Alt', 'Shift', '↓'], label: 'nextUnread' },
  { keys: ['R'], label: 'focusComposer' },
  { keys: ['T'], label: 'takeChat' },
  { keys: ['H'], label: 'handOver' },
  { keys: ['Q'], label: 'backToQueue' },
  { keys: ['N'], label: 'writeNote' },
  { keys: ['Ctrl/⌘', 'K'], label: 'search' },
  { keys: ['?'], label: 'help' },
] as const;
