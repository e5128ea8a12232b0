import { describe, expect, it } from 'vitest';
import type { StatsBucket } from '@parley/protocol';
import { mergeBuckets, rangeParams } from './stats-queries';

const bucket = (start: number, messages_in: number): StatsBucket => ({
  start,
  end: start + 1,
  messages_in,
  messages_out: 0,
  waiting: 0,
  first_responses: 0,
  first_response_median_ms: null,
  first_response_p90_ms: null,
  engine_characters: {},
  memory_characters: 0,
  glossary_hits: 0,
  back_translations: 0,
  flagged_round_trips: 0,
  assignments: 0,
  handovers: 0,
  back_to_queue: 0,
  queue_wait_avg_ms: null,
  queue_wait_p90_ms: null,
});

describe('the charts in the browser', () => {
  it('a live update replaces the current bucket and keeps the others', () => {
    const cached = [bucket(1, 5), bucket(2, 0), bucket(3, 0)];
    expect(mergeBuckets(cached, [bucket(2, 1)]).map((b) => b.messages_in)).toEqual([5, 1, 0]);
  });

  it("today, 7 and 30 days are local days of the owner's zone (half an hour off UTC's in Kolkata)", () => {
    // 20:00 UTC on the 14th is already 01:30 on the 15th in Kolkata.
    const at = Date.parse('2026-01-14T20:00:00Z');
    expect(rangeParams('today', null, at, 'Asia/Kolkata')).toMatchObject({
      from: '2026-01-15',
      to: '2026-01-15',
    });
    expect(rangeParams('7d', 3, at, 'Asia/Kolkata')).toMatchObject({
      from: '2026-01-09',
      to: '2026-01-15',
      seatId: 3,
    });
    expect(rangeParams('30d', null, at, 'UTC')).toMatchObject({
      from: '2025-12-16',
      to: '2026-01-14',
    });
  });
});
