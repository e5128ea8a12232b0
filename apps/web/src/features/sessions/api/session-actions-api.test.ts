import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionItem } from '@parley/protocol';
import { blockOrUnblock } from './session-actions-api';

const item: SessionItem = {
  session_id: 7,
  send_phone: '+100000',
  receiver_phone: '+200000',
  un_read_count: 0,
  add_time: 1,
  latest_time: 2,
  group_id: 3,
  is_top: false,
  remark: '',
  blocked: true,
  customer_name: null,
  avatar_url: null,
  user_time_type: 1,
  customer_language: null,
  last_message: null,
  can_reply: true,
  reply_until: null,
};

afterEach(() => void vi.unstubAllGlobals());

describe('blockOrUnblock', () => {
  it('picks /block or /unblock by type and leaves type out of the body', async () => {
    const fetch = vi.fn(
      async (_url: string, _init?: RequestInit) =>
        new Response(JSON.stringify({ code: '000000', msg: 'success', data: item })),
    );
    vi.stubGlobal('fetch', fetch);
    await expect(blockOrUnblock({ type: 'block', session_id: 7 })).resolves.toEqual(item);
    await blockOrUnblock({ type: 'unblock', session_id: 7 });
    expect(fetch.mock.calls.map(([url, init]) => [url, JSON.parse(String(init?.body))])).toEqual([
      ['/v1/seat/chat/block', { session_id: 7 }],
      ['/v1/seat/chat/unblock', { session_id: 7 }],
    ]);
  });
});
