import { describe, expect, it } from 'vitest';
import type { SessionItem } from '@parley/protocol';
import { selectedUserChanged } from './session-queries';

const base: SessionItem = {
  session_id: 1,
  send_phone: '+100000',
  receiver_phone: '+200000',
  un_read_count: 2,
  add_time: 1,
  latest_time: 2,
  group_id: 1,
  is_top: false,
  remark: '',
  blocked: false,
  user_time_type: 1,
  customer_language: null,
  last_message: null,
};

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
