import { describe, expect, it } from 'vitest';
import { sessionItem } from '../../../test/builders';
import type { SessionItem } from '@parley/protocol';
import { refreshedSelection, selectedUserChanged } from './selected-user';

const base = sessionItem(1, { receiver_phone: '+200000', un_read_count: 2 });

describe('selectedUserChanged', () => {
  it('ignores add_time, latest_time and un_read_count', () => {
    expect(
      selectedUserChanged(base, { ...base, add_time: 9, latest_time: 9, un_read_count: 0 }),
    ).toBe(false);
  });
  it('sees other changes', () => {
    expect(selectedUserChanged(base, { ...base, remark: 'VIP' })).toBe(true);
    expect(selectedUserChanged(base, { ...base, is_top: true })).toBe(true);
  });
});

describe('refreshedSelection (the user-list poll and the selected user)', () => {
  const other: SessionItem = { ...base, session_id: 2, receiver_phone: '+300000' };

  it('keeps the selected user when only add_time, latest_time or un_read_count moved', () => {
    const polled = [other, { ...base, latest_time: 50, add_time: 3, un_read_count: 7 }];
    expect(refreshedSelection(base, polled)).toBeNull();
  });

  it('takes the polled item when anything else changed (remark, block, group, last message)', () => {
    const renamed = { ...base, remark: 'VIP', latest_time: 99 };
    expect(refreshedSelection(base, [other, renamed])).toBe(renamed);
    const blocked = { ...base, blocked: true };
    expect(refreshedSelection(base, [blocked])).toBe(blocked);
    const moved = { ...base, group_id: 4 };
    expect(refreshedSelection(base, [moved])).toBe(moved);
    const written = {
      ...base,
      last_message: {
        type: 'text' as const,
        direction: 'in' as const,
        preview: 'hi',
        created_at: 3,
      },
    };
    expect(refreshedSelection(base, [written])).toBe(written);
  });

  it('keeps the selection when the chat is not on the polled page', () => {
    expect(refreshedSelection(base, [other])).toBeNull();
  });
});
