import { describe, expect, it } from 'vitest';
import type { SessionItem } from '@parley/protocol';
import { countChosen, targetsOf } from './use-batch-selection';

const chat = (session_id: number, group_id: number) => ({ session_id, group_id }) as SessionItem;

describe('batch selection', () => {
  it('counts whole groups and the chosen chats outside them once', () => {
    const sel = {
      groups: new Map([[10, 5]]),
      sessions: new Map([
        [1, chat(1, 10)],
        [2, chat(2, 20)],
        [3, chat(3, 30)],
      ]),
    };
    expect(countChosen(sel)).toBe(7);
    expect(targetsOf(sel)).toEqual({ group_ids: [10], session_ids: [2, 3] });
  });

  it('is empty when nothing is chosen', () => {
    const sel = { groups: new Map(), sessions: new Map() };
    expect(countChosen(sel)).toBe(0);
    expect(targetsOf(sel)).toEqual({ group_ids: [], session_ids: [] });
  });
});
