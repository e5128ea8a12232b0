import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS } from '@parley/protocol';
import { createTestApp, type TestApp } from './helper.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { corpus, multipart } from './media-helpers.js';
import { platformPost } from './platform-helpers.js';
import { signedHeaders } from '../src/channels/platform/platform-signature.js';

let t: TestApp;
let seat: SeatFixture;
let other: SeatFixture;

beforeAll(async () => {
  t = await createTestApp();
  seat = await createSeat(t, 'bridge-owner');
  other = await createSeat(t, 'bridge-other');
});
afterAll(async () => t.close());

let counter = 0;
const platformId = () => `plat-${process.pid}-${++counter}`;

function message(extra: Record<string, unknown> = {}) {
  return {
    id: platformId(),
    account: seat.phones[0],
    customer: nextPhone('+4478'),
    type: 'text',
    content: 'hello from the platform',
    ...extra,
  };
}

async function record(customer: string, token = seat.token) {
  return t.call(
    '/v1/seat/chat/getChatRecord',
    { send_phone: seat.phones[0]!, receiver_phone: customer },
    token,
  );
}

const countRows = async (table: 'messages' | 'inbound_messages' | 'media' | 'sessions') =>
  Number(
    (
      await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function counts() {
  return {
    messages: await countRows('messages'),
    inbound: await countRows('inbound_messages'),
    media: await countRows('media'),
    sessions: await countRows('sessions'),
  };
}

describe('signed requests', () => {
  it('a bad signature is refused with a coded error and stores nothing', async () => {
    const before = await counts();
    const body = JSON.stringify(message());
    const res = await platformPost(t, PLATFORM_PATHS.message, body, { secret: 'wrong-secret' });
    expect(res.status).toBe(403);
    expect(res.code).toBe('400003');
    expect(res.data).toEqual({ reason: 'bad_signature' });
    expect(res.msg).toMatch(/bad_signature/);
    expect(await counts()).toEqual(before);
  });

  it('a body changed after signing is refused', async () => {
    const body = JSON.stringify(message());
    const headers = signedHeaders('test-platform-secret', body);
    const res = await platformPost(t, PLATFORM_PATHS.message, body.replace('hello', 'HELLO'), {
      headers,
    });
    expect(res.code).toBe('400003');
    expect(res.data).toEqual({ reason: 'bad_signature' });
  });

  it('missing headers are refused', async () => {
    const res = await platformPost(t, PLATFORM_PATHS.message, JSON.stringify(message()), {
      headers: {},
    });
    expect(res.code).toBe('400003');
    expect(res.data).toEqual({ reason: 'missing' });
  });

  it('a timestamp older than 5 minutes is stale, and so is one far in the future', async () => {
    const before = await counts();
    for (const skew of [-6 * 60_000, 6 * 60_000]) {
      const res = await platformPost(t, PLATFORM_PATHS.message, JSON.stringify(message()), {
        nowMs: Date.now() + skew,
      });
      expect(res.code).toBe('400003');
      expect(res.data).toEqual({ reason: 'stale_timestamp' });
    }
    expect(await counts()).toEqual(before);
  });

  it('malformed JSON and a body that breaks the schema answer 100001, storing nothing', async () => {
    const before = await counts();
    const bad = await platformPost(t, PLATFORM_PATHS.message, '{"id": "x",');
    expect(bad.code).toBe('100001');
    const noType = await platformPost(
      t,
      PLATFORM_PATHS.message,
      JSON.stringify(message({ type: 'sticker' })),
    );
    expect(noType.code).toBe('100001');
    expect(noType.msg).toMatch(/type/);
    const badPhone = await platformPost(
      t,
      PLATFORM_PATHS.message,
      JSON.stringify(message({ customer: 'abc' })),
    );
    expect(badPhone.code).toBe('400005');
    const noMedia = await platformPost(
      t,
      PLATFORM_PATHS.message,
      JSON.stringify(message({ type: 'image' })),
    );
    expect(noMedia.code).toBe('100001');
    expect(noMedia.msg).toMatch(/media/);
    expect(await counts()).toEqual(before);
  });

  it('an unknown account answers 400007 and stores nothing', async () => {
    const before = await counts();
    const res = await platformPost(
      t,
      PLATFORM_PATHS.message,
      JSON.stringify(message({ account: '+19990000001' })),
    );
    expect(res.code).toBe('400007');
    expect(await counts()).toEqual(before);
  });
});

describe('customer messages', () => {
  it('a text creates the chat in Ungrouped for the owning seat only', async () => {
    const body = message();
    const res = await platformPost(t, PLATFORM_PATHS.message, JSON.stringify(body));
    expect(res.code).toBe('000000');
    expect(res.data).toMatchObject({ blocked: false, duplicate: false });
    const info = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: seat.groups.ungrouped },
      seat.token,
    );
    const chat = info.data.account_list.find((c) => c.receiver_phone === body.customer);
    expect(chat).toMatchObject({ un_read_count: 1, last_message: { direction: 'in' } });
    const got = await record(body.customer);
    expect(got.data.list.map((m) => [m.direction, m.type, m.content])).toEqual([
      ['in', 'text', 'hello from the platform'],
    ]);
    // Stored with the platform's id of it.
    const stored = await t.db
      .selectFrom('messages')
      .select('external_id')
      .where('id', '=', got.data.list[0]!.msg_id)
      .executeTakeFirstOrThrow();
    expect(stored.external_id).toBe(body.id);
    // Another seat never sees it.
    const foreign = await t.call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: seat.phones[0]!, receiver_phone: body.customer },
      other.token,
    );
    expect(foreign.code).toBe('400001');
  });

  it('the same platform id sent again is stored once', async () => {
    const body = JSON.stringify(message());
    const first = await platformPost(t, PLATFORM_PATHS.message, body);
    const before = await counts();
    const again = await platformPost(t, PLATFORM_PATHS.message, body);
    const concurrent = await Promise.all([
      platformPost(t, PLATFORM_PATHS.message, body),
      platformPost(t, PLATFORM_PATHS.message, body),
    ]);
    expect(again.data).toEqual({ ...(first.data as object), duplicate: true });
    for (const c of concurrent) expect(c.data).toMatchObject({ duplicate: true });
    expect(await counts()).toEqual(before);
    const customer = (JSON.parse(body) as { customer: string }).customer;
    expect((await record(customer)).data.list).toHaveLength(1);
  });

  const mediaCases = [
    { type: 'image', file: 'photo.png', mime: 'image/png' },
    { type: 'audio', file: 'tone.mp3', mime: 'audio/mpeg' },
    { type: 'video', file: 'clip.mp4', mime: 'video/mp4' },
    { type: 'file', file: 'doc.pdf', mime: 'application/pdf' },
  ] as const;
  for (const c of mediaCases) {
    it(`a ${c.type} message as base64, checked by its bytes`, async () => {
      const body = message({
        type: c.type,
        content: `a ${c.type}`,
        media: { data: corpus(c.file).toString('base64'), file_name: c.file },
      });
      const res = await platformPost(t, PLATFORM_PATHS.message, JSON.stringify(body));
      expect(res.code).toBe('000000');
      const [m] = (await record(body.customer)).data.list;
      expect(m).toMatchObject({ type: c.type, content: `a ${c.type}`, direction: 'in' });
      expect(m!.media).toMatchObject({ mime: c.mime, size: corpus(c.file).length });
      // The signed URL serves the very bytes.
      const served = await t.app.inject({ method: 'GET', url: m!.media!.url });
      expect(served.rawPayload.equals(corpus(c.file))).toBe(true);
    });
  }

  it('an image as multipart', async () => {
    const customer = nextPhone('+4478');
    const form = multipart([
      { name: 'id', value: platformId() },
      { name: 'account', value: seat.phones[0]! },
      { name: 'customer', value: customer },
      { name: 'type', value: 'image' },
      { name: 'content', value: 'multipart photo' },
      {
        name: 'file',
        filename: 'photo.jpg',
        content: corpus('photo.jpg'),
        contentType: 'image/jpeg',
      },
    ]);
    const res = await platformPost(t, PLATFORM_PATHS.message, form.payload, {
      contentType: form.contentType,
    });
    expect(res.code).toBe('000000');
    const [m] = (await record(customer)).data.list;
    expect(m).toMatchObject({ type: 'image', content: 'multipart photo' });
    expect(m!.media).toMatchObject({ mime: 'image/jpeg', file_name: 'photo.jpg' });
  });

  it('bytes that are not what the type says are refused and nothing is stored', async () => {
    const before = await counts();
    const body = message({
      type: 'image',
      media: { data: corpus('doc.pdf').toString('base64'), file_name: 'fake.png' },
    });
    const res = await platformPost(t, PLATFORM_PATHS.message, JSON.stringify(body));
    expect(res.code).toBe('100001');
    expect(await counts()).toEqual(before);
  });

  it('a blocked chat takes nothing', async () => {
    const first = message();
    await platformPost(t, PLATFORM_PATHS.message, JSON.stringify(first));
    const session = (await record(first.customer)).data.list[0]!.session_id;
    const blocked = await t.call('/v1/seat/chat/block', { session_id: session }, seat.token);
    expect(blocked.code).toBe('000000');
    const res = await platformPost(
      t,
      PLATFORM_PATHS.message,
      JSON.stringify({ ...message(), customer: first.customer, content: 'still there?' }),
    );
    expect(res.data).toMatchObject({ msg_id: null, blocked: true });
    expect((await record(first.customer)).data.list).toHaveLength(1);
  });
});

describe('receipts and deletions', () => {
  async function operatorMessage() {
    const customer = nextPhone('+4479');
    await platformPost(t, PLATFORM_PATHS.message, JSON.stringify(message({ customer })));
    const sent = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        type: 'text',
        content: 'operator says hi',
        client_msg_id: `c-${platformId()}`,
      },
      seat.token,
    );
    expect(sent.code).toBe('000000');
    return { customer, msgId: sent.data.msg_id };
  }
  const receipt = (msgId: number, status: string, account = seat.phones[0]) =>
    platformPost(
      t,
      PLATFORM_PATHS.receipt,
      JSON.stringify({ account, msg_id: msgId, status, external_id: `ext-${msgId}` }),
    );
  const statusOf = async (customer: string, msgId: number) =>
    (await record(customer)).data.list.find((m) => m.msg_id === msgId)!.status;

  it('delivered then read move the status forward; a late "delivered" does not move it back', async () => {
    const { customer, msgId } = await operatorMessage();
    expect((await receipt(msgId, 'delivered')).code).toBe('000000');
    expect(await statusOf(customer, msgId)).toBe('delivered');
    expect((await receipt(msgId, 'read')).data).toEqual({ msg_id: msgId, status: 'read' });
    expect(await statusOf(customer, msgId)).toBe('read');
    await receipt(msgId, 'delivered');
    expect(await statusOf(customer, msgId)).toBe('read');
    const row = await t.db
      .selectFrom('messages')
      .select('external_id')
      .where('id', '=', msgId)
      .executeTakeFirstOrThrow();
    expect(row.external_id).toBe(`ext-${msgId}`);
  });

  it('failed marks an undelivered message failed', async () => {
    const { customer, msgId } = await operatorMessage();
    await receipt(msgId, 'failed');
    expect(await statusOf(customer, msgId)).toBe('failed');
  });

  it('a receipt for another account, an unknown id or a bad status is refused', async () => {
    const { customer, msgId } = await operatorMessage();
    expect((await receipt(msgId, 'read', other.phones[0])).code).toBe('400001');
    expect((await receipt(999_999, 'read')).code).toBe('400001');
    expect((await receipt(msgId, 'pending')).code).toBe('100001');
    expect(await statusOf(customer, msgId)).toBe('sent');
  });

  it("a customer's deletion retracts the message for the seat", async () => {
    const body = message({ content: 'oops, wrong chat' });
    await platformPost(t, PLATFORM_PATHS.message, JSON.stringify(body));
    const res = await platformPost(
      t,
      PLATFORM_PATHS.deletion,
      JSON.stringify({ account: body.account, id: body.id }),
    );
    expect(res.code).toBe('000000');
    const [m] = (await record(body.customer)).data.list;
    expect(m).toMatchObject({ deleted: true, content: '' });
    // Again: still success, nothing changes; an unknown id is 400001.
    const again = await platformPost(
      t,
      PLATFORM_PATHS.deletion,
      JSON.stringify({ account: body.account, id: body.id }),
    );
    expect(again.code).toBe('000000');
    const unknown = await platformPost(
      t,
      PLATFORM_PATHS.deletion,
      JSON.stringify({ account: body.account, id: 'never-sent' }),
    );
    expect(unknown.code).toBe('400001');
  });
});
