import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PLATFORM_PATHS, type ChatMessage } from '@parley/protocol';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { platformAt, platformPost, SECRET } from './platform-helpers.js';
import { startReceiver } from './platform-receiver.js';

/**
 * Replies (issue 26) through the seat API and the platform bridge: a reply carries `reply_to`
 * and the quote both ways; another chat's or seat's message is refused and nothing is stored;
 * a retracted quoted message is shown as deleted.
 */
let t: TestApp;
let seat: SeatFixture;
let other: SeatFixture;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver(SECRET);
  t = await createTestApp({ platform: platformAt(receiver.url) });
  seat = await createSeat(t, 'reply-owner');
  other = await createSeat(t, 'reply-other');
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

let n = 0;
async function inbound(s: SeatFixture, customer: string, body: Record<string, unknown>) {
  const id = `reply-in-${process.pid}-${++n}`;
  const res = await platformPost(
    t,
    PLATFORM_PATHS.message,
    JSON.stringify({ id, account: s.phones[0], customer, type: 'text', ...body }),
  );
  return { id, res, msgId: (res.data as { msg_id: number } | null)?.msg_id ?? null };
}

function send(s: SeatFixture, customer: string, body: Record<string, unknown>) {
  return t.call(
    '/v1/seat/chat/message',
    {
      send_phone: s.phones[0]!,
      receiver_phone: customer,
      client_msg_id: `reply-out-${process.pid}-${++n}`,
      ...body,
    },
    s.token,
  );
}

async function history(s: SeatFixture, customer: string): Promise<ChatMessage[]> {
  const res = await t.call(
    '/v1/seat/chat/getChatRecord',
    { send_phone: s.phones[0]!, receiver_phone: customer, page_size: 50 },
    s.token,
  );
  expect(res.code).toBe('000000');
  return res.data.list;
}

describe('an operator replies to a message', () => {
  it('the reply carries reply_to and the quote, in the answer and the history; the platform gets reply_to', async () => {
    const customer = nextPhone('+4490');
    const asked = await inbound(seat, customer, { content: 'Where is   my order #42?' });
    const reply = await send(seat, customer, { content: 'It ships today.', reply_to: asked.msgId });
    expect(reply.code).toBe('000000');
    const quote = {
      msg_id: asked.msgId,
      direction: 'in',
      type: 'text',
      preview: 'Where is my order #42?',
      deleted: false,
    };
    expect(reply.data).toMatchObject({ reply_to: asked.msgId, quote });
    const list = await history(seat, customer);
    expect(list.find((m) => m.msg_id === reply.data.msg_id)).toMatchObject({
      reply_to: asked.msgId,
      quote,
    });
    expect(list.find((m) => m.msg_id === asked.msgId)).toMatchObject({
      reply_to: null,
      quote: null,
    });

    // Out to the platform: the quoted message by Parley's id and the platform's own id.
    const out = await vi.waitFor(
      () => {
        const got = receiver.raw.find(
          (r) => r.body.kind === 'message' && r.body.msg_id === reply.data.msg_id,
        );
        expect(got).toBeDefined();
        return got!.body;
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(out).toMatchObject({
      kind: 'message',
      content: 'It ships today.',
      reply_to: { msg_id: asked.msgId, external_id: asked.id },
    });
    // A message that is no reply says so.
    const plain = await send(seat, customer, { content: 'Anything else?' });
    const plainOut = await vi.waitFor(
      () => {
        const got = receiver.raw.find(
          (r) => r.body.kind === 'message' && r.body.msg_id === plain.data.msg_id,
        );
        expect(got).toBeDefined();
        return got!.body;
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(plainOut).toMatchObject({ reply_to: null });
    expect(plain.data).toMatchObject({ reply_to: null, quote: null });
  });

  it('a message of another chat or another seat is refused (100001 naming reply_to); nothing is stored', async () => {
    const customer = nextPhone('+4491');
    const elsewhere = nextPhone('+4491');
    await inbound(seat, customer, { content: 'hello' });
    const otherChat = await inbound(seat, elsewhere, { content: 'another chat' });
    const theirs = await inbound(other, nextPhone('+4491'), { content: 'another seat' });
    const before = (await history(seat, customer)).length;
    for (const replyTo of [otherChat.msgId, theirs.msgId, 2_000_000_000]) {
      const refused = await send(seat, customer, { content: 'quoted wrong', reply_to: replyTo });
      expect(refused.code).toBe('100001');
      expect(refused.msg).toContain('reply_to');
      expect(refused.data).toEqual({
        fields: [{ path: 'reply_to', message: 'not a message of this chat' }],
      });
    }
    expect(await history(seat, customer)).toHaveLength(before);
    const bad = await send(seat, customer, { content: 'x', reply_to: 'first' });
    expect(bad.code).toBe('100001');
    expect(bad.msg).toContain('reply_to');
  });

  it('a quoted message deleted for all shows as a deleted quote; a message hidden or retracted cannot be quoted', async () => {
    const customer = nextPhone('+4492');
    await inbound(seat, customer, { content: 'hi' });
    const first = await send(seat, customer, { content: 'An offer: 10% off' });
    const reply = await send(seat, customer, {
      content: 'Still valid',
      reply_to: first.data.msg_id,
    });
    expect(reply.data.quote).toMatchObject({ preview: 'An offer: 10% off', deleted: false });
    const del = await t.call(
      '/v1/seat/chat/del_message',
      { msg_id: first.data.msg_id, scope: 'all' },
      seat.token,
    );
    expect(del.code).toBe('000000');
    const shown = (await history(seat, customer)).find((m) => m.msg_id === reply.data.msg_id)!;
    expect(shown.reply_to).toBe(first.data.msg_id);
    expect(shown.quote).toMatchObject({ msg_id: first.data.msg_id, preview: '', deleted: true });
    expect((await send(seat, customer, { content: 'x', reply_to: first.data.msg_id })).code).toBe(
      '100001',
    );
  });
});

describe('a customer replies through the platform', () => {
  it("by the platform's id or by Parley's: the console gets the quote; an unknown platform id is stored unquoted", async () => {
    const customer = nextPhone('+4493');
    const first = await inbound(seat, customer, { content: 'my first question' });
    const answer = await send(seat, customer, { content: 'Our answer' });
    const byPlatformId = await inbound(seat, customer, {
      content: 'about my question',
      reply_to: first.id,
    });
    const byParleyId = await inbound(seat, customer, {
      content: 'about your answer',
      reply_to_msg_id: answer.data.msg_id,
    });
    const unknown = await inbound(seat, customer, {
      content: 'about something old',
      reply_to: 'never-seen',
    });
    const list = await history(seat, customer);
    const byId = (id: number | null) => list.find((m) => m.msg_id === id)!;
    expect(byId(byPlatformId.msgId)).toMatchObject({
      reply_to: first.msgId,
      quote: { direction: 'in', preview: 'my first question', deleted: false },
    });
    expect(byId(byParleyId.msgId)).toMatchObject({
      reply_to: answer.data.msg_id,
      quote: { direction: 'out', preview: 'Our answer', deleted: false },
    });
    expect(byId(unknown.msgId)).toMatchObject({ reply_to: null, quote: null });

    // The operator's message by the id the platform answered for it (external_id).
    await vi.waitFor(
      () =>
        expect(
          receiver.raw.some(
            (r) => r.body.kind === 'message' && r.body.msg_id === answer.data.msg_id,
          ),
        ).toBe(true),
      { timeout: 10_000, interval: 20 },
    );
    const key = `parley-${answer.data.msg_id}-message`;
    await vi.waitFor(async () => {
      const row = await t.db
        .selectFrom('messages')
        .select('external_id')
        .where('id', '=', answer.data.msg_id)
        .executeTakeFirst();
      expect(row?.external_id).toBe(`ext-${key}`);
    });
    const byExternal = await inbound(seat, customer, { content: 'ok!', reply_to: `ext-${key}` });
    expect(
      (await history(seat, customer)).find((m) => m.msg_id === byExternal.msgId)?.reply_to,
    ).toBe(answer.data.msg_id);
  });

  it("Parley's id of another chat's message is refused (100001 naming reply_to_msg_id); nothing is stored", async () => {
    const customer = nextPhone('+4494');
    await inbound(seat, customer, { content: 'hello' });
    const elsewhere = await inbound(seat, nextPhone('+4494'), { content: 'elsewhere' });
    const before = (await history(seat, customer)).length;
    const refused = await inbound(seat, customer, {
      content: 'quoted wrong',
      reply_to_msg_id: elsewhere.msgId,
    });
    expect(refused.res.status).toBe(400);
    expect(refused.res.code).toBe('100001');
    expect(refused.res.msg).toContain('reply_to_msg_id');
    expect(await history(seat, customer)).toHaveLength(before);
    // Its platform id was not taken: the same message sent right is stored.
    const again = await platformPost(
      t,
      PLATFORM_PATHS.message,
      JSON.stringify({
        id: refused.id,
        account: seat.phones[0],
        customer,
        type: 'text',
        content: 'quoted right',
      }),
    );
    expect(again.data).toMatchObject({ duplicate: false, blocked: false });
  });
});
