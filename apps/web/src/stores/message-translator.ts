import type { ChatMessage } from '@parley/protocol';
import { readItem } from '../lib/storage';

/**
 * The context menu's "Translate" (spec: mode single translates one message on right-click).
 * The translation feature registers its translator here; until it does, the entry only checks
 * that translation is enabled and then does nothing.
 */
export type MessageTranslator = (message: ChatMessage) => void;

let translator: MessageTranslator | null = null;

/** Called by the translation feature; returns the unregister function. */
export function registerMessageTranslator(fn: MessageTranslator): () => void {
  translator = fn;
  return () => {
    if (translator === fn) translator = null;
  };
}

/** 'disabled' when the stored translation settings are off (spec: enable before translating). */
export function requestMessageTranslation(message: ChatMessage): 'disabled' | 'requested' {
  if (!readItem('translate')?.isEnable) return 'disabled';
  translator?.(message);
  return 'requested';
}

/**
 * The translation shown under a message (the context menu's "Copy with translation" reads it).
 * The translation feature registers its reader; until it does, no message has one.
 */
export type TranslationReader = (
  message: Pick<ChatMessage, 'session_id' | 'msg_id'>,
) => string | undefined;

let reader: TranslationReader | null = null;

export function registerTranslationReader(fn: TranslationReader): () => void {
  reader = fn;
  return () => {
    if (reader === fn) reader = null;
  };
}

/** The translation the console shows under this message, if any (translation on). */
export function shownTranslationOf(
  message: Pick<ChatMessage, 'session_id' | 'msg_id'>,
): string | undefined {
  if (!readItem('translate')?.isEnable) return undefined;
  return reader?.(message);
}
