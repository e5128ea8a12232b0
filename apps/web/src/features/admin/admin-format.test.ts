import { describe, expect, it } from 'vitest';
import { changedFields, formatAgo, formatDuration, formatShare, showValue } from './admin-format';

describe('formatDuration', () => {
  it('picks the unit by size, in the UI language', () => {
    expect(formatDuration(45_000, 'en')).toBe('45 sec');
    expect(formatDuration(12 * 60_000 + 5_000, 'en')).toBe('12 min');
    expect(formatDuration(3 * 3_600_000 + 5 * 60_000, 'en')).toBe('3 hr 5 min');
    expect(formatDuration(2 * 3_600_000, 'en')).toBe('2 hr');
    expect(formatDuration(2 * 86_400_000 + 4 * 3_600_000, 'en')).toBe('2 days 4 hr');
    expect(formatDuration(-5, 'en')).toBe('0 sec');
    expect(formatDuration(12 * 60_000, 'ru')).toMatch(/^12 мин/);
  });
});

describe('formatAgo and formatShare', () => {
  it('says how long ago and what share', () => {
    const now = Date.UTC(2026, 10, 24, 12);
    expect(formatAgo(now - 5 * 60_000, 'en', now)).toBe('5 minutes ago');
    expect(formatAgo(now - 86_400_000, 'en', now)).toBe('yesterday');
    expect(formatShare(0.375, 'en')).toBe('37.5%');
  });
});

describe('changedFields', () => {
  it('lists only what differs, creations and removals whole', () => {
    expect(
      changedFields(
        { nickname: 'Ann', frozen: false, phones: ['+1'] },
        { nickname: 'Anna', frozen: false, phones: ['+1'] },
      ),
    ).toEqual([{ field: 'nickname', before: 'Ann', after: 'Anna' }]);
    expect(changedFields(null, { account: 'a1' })).toEqual([
      { field: 'account', before: undefined, after: 'a1' },
    ]);
    expect(changedFields({ frozen: false }, { frozen: true })).toEqual([
      { field: 'frozen', before: false, after: true },
    ]);
    expect(changedFields(null, null)).toEqual([]);
  });

  it('shows values on one line', () => {
    expect(showValue(null)).toBe('—');
    expect(showValue('')).toBe('""');
    expect(showValue(true)).toBe('true');
    expect(showValue(['+1', '+2'])).toBe('["+1","+2"]');
  });
});
