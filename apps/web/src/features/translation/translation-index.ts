import type { HistoryEntry } from './translation-history';

const indexes = new WeakMap<readonly HistoryEntry[], Map<string, HistoryEntry>>();

const keyOf = (sessionId: number, msgId: number, lang: string) => `${sessionId}:${msgId}:${lang}`;

/**
 * The translation of one message of one chat into `lang`. Results are keyed by chat and
 * message, so an answer can only ever show under the message it was asked for. The lookup
 * map is built once per history version (every bubble asks on every change).
 */
export function lookupTranslation(
  entries: readonly HistoryEntry[],
  sessionId: number,
  msgId: number,
  lang: string,
): HistoryEntry | undefined {
  let index = indexes.get(entries);
  if (!index) {
    index = new Map(entries.map((e) => [keyOf(e.session_id, e.msg_id, e.lang), e]));
    indexes.set(entries, index);
  }
  return index.get(keyOf(sessionId, msgId, lang));
}
