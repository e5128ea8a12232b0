import { describe, expect, it } from 'vitest';
import { clientMsgId } from '@parley/protocol';
import { newClientMsgId } from './client-msg-id';

describe('newClientMsgId', () => {
  it('matches the protocol rule and is unique', () => {
    const a = newClientMsgId();
    expect(clientMsgId.safeParse(a).success).toBe(true);
    expect(a).not.toBe(newClientMsgId());
  });
});
