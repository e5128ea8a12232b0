import { describe, expect, it } from 'vitest';
import {
  TAB_LOCK_KEY,
  TAB_LOCK_STALE_MS,
  checkTab,
  claimTab,
  decideTab,
  parseLock,
  releaseTab,
} from './tab-lock';
import { memoryStore } from '../test/builders';

describe('tab lock', () => {
  it('the first tab owns the lock and heartbeats', () => {
    const s = memoryStore();
    expect(checkTab(s, 'a', 1000)).toBe('own');
    expect(parseLock(s.getItem(TAB_LOCK_KEY))).toEqual({ id: 'a', ts: 1000 });
    expect(checkTab(s, 'a', 4000)).toBe('own');
    expect(parseLock(s.getItem(TAB_LOCK_KEY))?.ts).toBe(4000);
  });

  it('a second tab is banned while the first is alive', () => {
    const s = memoryStore();
    checkTab(s, 'a', 1000);
    expect(checkTab(s, 'b', 3000)).toBe('banned');
    expect(parseLock(s.getItem(TAB_LOCK_KEY))?.id).toBe('a');
  });

  it('a stale heartbeat is taken over', () => {
    expect(decideTab({ id: 'a', ts: 0 }, 'b', TAB_LOCK_STALE_MS + 1)).toBe('own');
  });

  it('"Use here" claims the lock so the other tab is banned at its next check', () => {
    const s = memoryStore();
    checkTab(s, 'a', 1000);
    claimTab(s, 'b', 2000);
    expect(checkTab(s, 'a', 4000)).toBe('banned');
    expect(checkTab(s, 'b', 5000)).toBe('own');
  });

  it('only the owner releases the lock', () => {
    const s = memoryStore();
    checkTab(s, 'a', 1000);
    releaseTab(s, 'b');
    expect(s.getItem(TAB_LOCK_KEY)).not.toBeNull();
    releaseTab(s, 'a');
    expect(s.getItem(TAB_LOCK_KEY)).toBeNull();
  });

  it('ignores garbage in the lock', () => {
    expect(parseLock('nope')).toBeNull();
    expect(parseLock('{"id":1}')).toBeNull();
  });
});
