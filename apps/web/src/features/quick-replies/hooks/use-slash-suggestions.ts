import { useCallback, useMemo, useState, type KeyboardEvent, type RefObject } from 'react';
import type { QuickReply } from '@parley/protocol';
import { filterQuickReplies, slashToken, textFirst } from '../quick-reply-filter';
import { useQuickReplies } from './use-quick-replies';

const MAX_SHOWN = 8;

interface Options {
  inputRef: RefObject<HTMLTextAreaElement | null>;
  text: string;
  setText: (text: string) => void;
  /** An image or audio material picked: the composer holds it until the operator sends it. */
  onAttach: (item: QuickReply) => void;
}

/**
 * `/` in the composer offers the materials, filtered by what follows the slash: arrows move,
 * Enter (or Tab) picks, Escape closes. Text replies are listed first. A text material replaces
 * the `/word`; an image or audio one becomes the composer's pending attachment (never sent by
 * the Enter that picked it).
 */
export function useSlashSuggestions({ inputRef, text, setText, onAttach }: Options) {
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const token = slashToken(text, Math.min(caret, text.length));
  const open = token !== null && token.start !== dismissedAt;
  const { list } = useQuickReplies(token !== null);
  const query = open && token ? token.query : null;
  const items = useMemo(
    () => (query === null ? [] : textFirst(filterQuickReplies(list, query)).slice(0, MAX_SHOWN)),
    [query, list],
  );
  const index = Math.min(active, Math.max(items.length - 1, 0));

  /** Keeps the caret position current (typing, clicking, arrow keys). */
  const syncCaret = useCallback(() => {
    const el = inputRef.current;
    if (!el) return;
    const at = el.selectionStart ?? 0;
    setCaret(at);
    setActive(0);
    // Out of any /word: a later slash at the same place opens the list again.
    if (!slashToken(el.value, at)) setDismissedAt(null);
  }, [inputRef]);

  const pick = (item: QuickReply) => {
    if (!token) return;
    const removeToken = text.slice(0, token.start) + text.slice(token.end);
    if (item.kind === 'text') {
      const next = text.slice(0, token.start) + item.content + text.slice(token.end);
      const at = token.start + item.content.length;
      setText(next);
      setCaret(at);
      requestAnimationFrame(() => {
        inputRef.current?.focus();
        inputRef.current?.setSelectionRange(at, at);
      });
    } else {
      setText(removeToken);
      setCaret(token.start);
      onAttach(item);
    }
  };

  /** Handles the keys meant for the list; true when the composer must ignore the key. */
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || items.length === 0 || e.nativeEvent.isComposing) {
      if (open && e.key === 'Escape' && token) {
        setDismissedAt(token.start);
        return true;
      }
      return false;
    }
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((index + step + items.length) % items.length);
      return true;
    }
    if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
      e.preventDefault();
      pick(items[index]!);
      return true;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      if (token) setDismissedAt(token.start);
      return true;
    }
    return false;
  };

  return {
    open: open && items.length > 0,
    items,
    activeIndex: index,
    pick,
    onKeyDown,
    /** Spread on the textarea. */
    inputProps: { onSelect: syncCaret, onClick: syncCaret },
  };
}

export type SlashSuggestions = ReturnType<typeof useSlashSuggestions>;
