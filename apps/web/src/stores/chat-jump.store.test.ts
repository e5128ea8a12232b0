import { describe, expect, it } from 'vitest';
import { selectUser } from './console.store';
import { chatJumpStore, clearJump, jumpToMessage } from './chat-jump.store';
import { sessionItem } from '../test/builders';

const session = (id: number) => sessionItem(id);

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
