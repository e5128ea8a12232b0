import { afterEach, describe, expect, it, vi } from 'vitest';
import { KnownVersions } from '../src/lib/known-versions.js';
import { ListCache } from '../src/lib/list-cache.js';

/**
 * A cached list carries the customers' photo URLs, signed by the UTC day (MediaUrls): an answer
 * is kept no later than the day's end, so no cached list hands out a URL past its expiry, even
 * when nothing in the list changes for days.
 */
afterEach(() => void vi.useRealTimers());

describe('ListCache and the UTC day', () => {
  it('an unchanged list is answered from its bytes within the day and read again after it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 10, 27, 23, 58, 0));
    const cache = new ListCache(new KnownVersions());
    let reads = 0;
    const readVersion = async () => ({ version: 7, edge: null });
    const read = async () => ({ read: ++reads });
    const answer = async () => (await cache.answer(1, 'list', readVersion, read)).body;

    expect(await answer()).toContain('"read":1');
    vi.setSystemTime(Date.UTC(2026, 10, 27, 23, 59, 59));
    expect(await answer()).toContain('"read":1');
    vi.setSystemTime(Date.UTC(2026, 10, 28, 0, 0, 1));
    expect(await answer()).toContain('"read":2');
  });
});
