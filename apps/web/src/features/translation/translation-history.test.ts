import { describe, expect, it } from 'vitest';
import { TRANSLATION_CACHE_DISPLAY_DAYS, TRANSLATION_CACHE_MINUTES } from '@parley/protocol';
import {
  HISTORY_MAX,
  addEntries,
  cacheDays,
  clearOldest,
  dropExpired,
  findEntry,
  isHistoryEntry,
  type HistoryEntry,
} from './translation-history';
import { lookupTranslation } from './translation-index';

const MIN = 60_000;
const entry = (msg_id: number, at: number, more: Partial<HistoryEntry> = {}): HistoryEntry => ({
  msg_id,
  session_id: 1,
  text: `t${msg_id}`,
  lang: 'EN',
  at,
  ...more,
});

describe('translation history', () => {
  it('the default cache time reads the same in minutes and in days (7200 min = 5 days)', () => {
    expect(cacheDays(TRANSLATION_CACHE_MINUTES)).toBe(TRANSLATION_CACHE_DISPLAY_DAYS);
    expect(cacheDays(720)).toBe(0.5);
  });

  it('drops entries older than the cache time, keeps younger ones', () => {
    const now = 10_000 * MIN;
    const entries = [
      entry(1, now - 7200 * MIN - 1),
      entry(2, now - 7200 * MIN),
      entry(3, now - 7199 * MIN),
      entry(4, now),
    ];
    expect(dropExpired(entries, 7200, now).map((e) => e.msg_id)).toEqual([3, 4]);
    // A shorter cache time drops more at once.
    expect(dropExpired(entries, 60, now).map((e) => e.msg_id)).toEqual([4]);
  });

  it('clears the oldest N by age, or everything when N is larger', () => {
    const entries = [entry(1, 30), entry(2, 10), entry(3, 20)];
    expect(clearOldest(entries, 2).map((e) => e.msg_id)).toEqual([1]);
    expect(clearOldest(entries, 0)).toHaveLength(3);
    expect(clearOldest(entries, 99)).toEqual([]);
  });

  it('keeps one entry per chat, message and language; a fresh one replaces the old', () => {
    const first = addEntries([], [entry(1, 1), entry(1, 1, { lang: 'RU' })]);
    const next = addEntries(first, [entry(1, 5, { text: 'newer' })]);
    expect(next).toHaveLength(2);
    expect(findEntry(next, 1, 1, 'EN')?.text).toBe('newer');
    expect(findEntry(next, 1, 1, 'RU')?.text).toBe('t1');
    // The same message id in another chat is another entry: answers never cross chats.
    const other = addEntries(next, [entry(1, 6, { session_id: 2, text: 'other chat' })]);
    expect(findEntry(other, 1, 1, 'EN')?.text).toBe('newer');
    expect(lookupTranslation(other, 2, 1, 'EN')?.text).toBe('other chat');
    expect(lookupTranslation(other, 3, 1, 'EN')).toBeUndefined();
  });

  it('holds at most HISTORY_MAX entries, dropping the oldest', () => {
    const many = Array.from({ length: HISTORY_MAX }, (_, i) => entry(i + 1, i + 1));
    const next = addEntries(many, [entry(0, HISTORY_MAX + 1)]);
    expect(next).toHaveLength(HISTORY_MAX);
    expect(next[0]!.msg_id).toBe(2);
    expect(next.at(-1)!.msg_id).toBe(0);
  });

  it('accepts only entries of the current shape', () => {
    expect(isHistoryEntry(entry(1, 1))).toBe(true);
    expect(isHistoryEntry({ msg_id: 1 })).toBe(false);
    expect(isHistoryEntry(null)).toBe(false);
  });
});
