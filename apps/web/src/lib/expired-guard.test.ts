import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createExpiredGuard } from './expired-guard';

describe('expired guard', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('opens once while guarded and resets after 3 s', () => {
    const open = vi.fn();
    const g = createExpiredGuard(open);
    expect(g.trigger()).toBe(true);
    expect(g.trigger()).toBe(false);
    expect(open).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(3000);
    expect(g.trigger()).toBe(true);
    expect(open).toHaveBeenCalledTimes(2);
  });

  it('dismissing resets the flag', () => {
    const open = vi.fn();
    const g = createExpiredGuard(open);
    g.trigger();
    g.reset();
    expect(g.trigger()).toBe(true);
  });
});
