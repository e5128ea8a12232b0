import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RETRY_MS, retrying } from './retrying-import';

// The web unit tests run in Node: the browser's window is an EventTarget here ('online').
beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('window', new EventTarget());
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A download that fails `failures` times, then gives `value`. */
function flaky<T>(failures: number, value: T) {
  const load = vi.fn(async () => {
    if (load.mock.calls.length <= failures) throw new TypeError('Failed to fetch');
    return value;
  });
  return load;
}

describe('retrying', () => {
  it('tries a failed download again every RETRY_MS, one attempt for all callers', async () => {
    const load = flaky(2, 'chunk');
    const get = retrying(load);
    const first = get();
    const second = get();
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(RETRY_MS);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(RETRY_MS);
    await expect(first).resolves.toBe('chunk');
    await expect(second).resolves.toBe('chunk');
    expect(load).toHaveBeenCalledTimes(3);
    await expect(get()).resolves.toBe('chunk');
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('tries again at once when the browser is back online', async () => {
    const load = flaky(1, 'chunk');
    const pending = retrying(load)();
    await vi.advanceTimersByTimeAsync(10);
    expect(load).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('online'));
    await expect(pending).resolves.toBe('chunk');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
