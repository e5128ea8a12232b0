import { describe, expect, it } from 'vitest';
import type { SessionItem } from '@parley/protocol';
import { selectUser } from './console.store';
import { chatJumpStore, clearJump, jumpToMessage } from './chat-jump.store';

const session = (id: number): SessionItem => ({
  session_id: id,
  send_phone: '+100000',
  receiver_phone: `+20000${id}`,
  un_read_count: 0,
  add_time: 1,
  latest_time: 1,
  group_id: 1,
  is_top: false,
  remark: '',
  blocked: false,
  user_time_type: 1,
  customer_language: null,
  last_message: null,
});

describe('chat jump', () => {
  it('belongs to one visit of one chat: selecting another chat drops it', () => {
    selectUser(session(1));
    jumpToMessage(1, 42);
    expect(chatJumpStore.get()).toMatchObject({ sessionId: 1, msgId: 42 });
    // A refreshed copy of the same chat keeps it.
    selectUser({ ...session(1), remark: 'new' });
    expect(chatJumpStore.get()).toMatchObject({ sessionId: 1, msgId: 42 });
    selectUser(session(2));
    expect(chatJumpStore.get()).toBeNull();
  });

  it('tells two jumps to the same message apart', () => {
    selectUser(session(3));
    jumpToMessage(3, 7);
    const first = chatJumpStore.get()!.seq;
    jumpToMessage(3, 7);
    expect(chatJumpStore.get()!.seq).toBeGreaterThan(first);
    clearJump();
    expect(chatJumpStore.get()).toBeNull();
  });
});
