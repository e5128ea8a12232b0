import { describe, expect, it } from 'vitest';
import type { TeamQueue } from '@parley/protocol';
import { queueSummary, waitParts } from './use-team-queues';

const queue = (count: number, oldest: number | null) =>
  ({ count, oldest_since: oldest }) as TeamQueue;

describe('the Queue place figures', () => {
  it('sums the teams and keeps the longest wait', () => {
    expect(queueSummary([queue(3, 20), queue(1, 50), queue(0, null)])).toEqual({
      count: 4,
      oldest: 20,
    });
    expect(queueSummary([])).toEqual({ count: 0, oldest: null });
  });

  it('a wait reads as hours and minutes', () => {
    expect(waitParts(0, 59_000)).toEqual({ h: 0, m: 0 });
    expect(waitParts(0, 65 * 60_000)).toEqual({ h: 1, m: 5 });
  });
});
