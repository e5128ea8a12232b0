import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const LIST = '/v1/seat/chat/quickReplyList';
const DO = '/v1/seat/chat/quickReplyDoType';

async function add(seat: SeatFixture, name: string, content: string) {
  const res = await t.call(DO, { type: 'add', kind: 'text', name, content }, seat.token);
  expect(res.code).toBe('000000');
  return res.data.item!;
}

async function list(seat: SeatFixture) {
  const res = await t.call(LIST, {}, seat.token);
  expect(res.code).toBe('000000');
  return res.data.list;
}

function rowsOf(seat: SeatFixture) {
  return t.db
    .selectFrom('quick_replies')
    .selectAll()
    .where('seat_id', '=', seat.seatId)
    .orderBy('id')
    .execute();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('quick replies', () => {
  it('starts empty; add, edit and delete text replies; listed by last update', async () => {
    const seat = await createSeat(t, 'qr-owner');
    expect(await list(seat)).toEqual([]);

    const greet = await add(seat, '  Greeting ', '  Hello! How can I help you today?  ');
    expect(greet).toEqual({
      id: expect.any(Number),
      kind: 'text',
      name: 'Greeting',
      content: 'Hello! How can I help you today?',
      media_id: null,
      media: null,
      updated_at: expect.any(Number),
    });
    await sleep(5);
    const bye = await add(seat, 'Goodbye', 'Thanks, have a nice day.');
    expect((await list(seat)).map((q) => q.id)).toEqual([bye.id, greet.id]);

    await sleep(5);
    const edited = await t.call(
      DO,
      { type: 'edit', id: greet.id, kind: 'text', name: 'Hello', content: 'Hi there!' },
      seat.token,
    );
    expect(edited.code).toBe('000000');
    expect(edited.data).toEqual({
      id: greet.id,
      item: { ...greet, name: 'Hello', content: 'Hi there!', updated_at: expect.any(Number) },
    });
    expect(edited.data.item!.updated_at).toBeGreaterThan(greet.updated_at);
    const afterEdit = await list(seat);
    expect(afterEdit.map((q) => q.id)).toEqual([greet.id, bye.id]);
    expect(afterEdit[0]).toEqual(edited.data.item);

    const del = await t.call(DO, { type: 'del', id: bye.id }, seat.token);
    expect(del.code).toBe('000000');
    expect(del.data).toEqual({ item: null, id: bye.id });
    expect((await list(seat)).map((q) => q.id)).toEqual([greet.id]);
    expect((await t.call(DO, { type: 'del', id: bye.id }, seat.token)).code).toBe('400001');
  });

  it('image and audio materials need media_id (100001); an unknown media is 400001', async () => {
    const seat = await createSeat(t, 'qr-media');
    const text = await add(seat, 'Price list', 'See our prices');
    for (const kind of ['image', 'audio'] as const) {
      const missing = await t.call(
        DO,
        { type: 'add', kind, name: 'Photo', content: 'caption' },
        seat.token,
      );
      expect(missing.code).toBe('100001');
      expect(missing.msg).toBe('Parameter error: media_id');
      const given = await t.call(
        DO,
        { type: 'add', kind, name: 'Photo', content: 'caption', media_id: 'media-1' },
        seat.token,
      );
      expect(given.code).toBe('400001');
      const editMissing = await t.call(
        DO,
        { type: 'edit', id: text.id, kind, name: 'Photo', content: 'caption' },
        seat.token,
      );
      expect(editMissing.code).toBe('100001');
      expect(editMissing.msg).toBe('Parameter error: media_id');
      const editGiven = await t.call(
        DO,
        { type: 'edit', id: text.id, kind, name: 'Photo', content: 'c', media_id: 'media-1' },
        seat.token,
      );
      expect(editGiven.code).toBe('400001');
    }
    expect(await list(seat)).toEqual([text]);
  });

  it('100001 naming bad fields; nothing stored or changed', async () => {
    const seat = await createSeat(t, 'qr-validate');
    const kept = await add(seat, 'Kept', 'unchanged');
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'text', name: 'n', content: 'c' }, 'type'],
      [{ type: 'rename', kind: 'text', name: 'n', content: 'c' }, 'type'],
      [{ type: 'add', name: 'n', content: 'c' }, 'kind'],
      [{ type: 'add', kind: 'video', name: 'n', content: 'c' }, 'kind'],
      [{ type: 'add', kind: 'text', name: '   ', content: 'c' }, 'name'],
      [{ type: 'add', kind: 'text', content: 'c' }, 'name'],
      [{ type: 'add', kind: 'text', name: 'n'.repeat(101), content: 'c' }, 'name'],
      [{ type: 'add', kind: 'text', name: 'n', content: '  ' }, 'content'],
      [{ type: 'add', kind: 'text', name: 'n' }, 'content'],
      [{ type: 'add', kind: 'text', name: 'n', content: 'c'.repeat(4097) }, 'content'],
      [{ type: 'edit', kind: 'text', name: 'n', content: 'c' }, 'id'],
      [{ type: 'edit', id: kept.id, kind: 'text', name: '', content: 'c' }, 'name'],
      [{ type: 'edit', id: kept.id, kind: 'text', name: 'n', content: '' }, 'content'],
      [{ type: 'del' }, 'id'],
      [{ type: 'del', id: -1 }, 'id'],
    ];
    for (const [body, field] of cases) {
      const res = await t.call(DO, body, seat.token);
      expect(res.code, JSON.stringify(body)).toBe('100001');
      expect(res.msg).toBe(`Parameter error: ${field}`);
    }
    expect(await list(seat)).toEqual([kept]);
  });

  it('400001 for an unknown id; seat A cannot list, edit or delete seat B’s replies', async () => {
    const a = await createSeat(t, 'qr-a');
    const b = await createSeat(t, 'qr-b');
    const bReply = await add(b, 'B private', 'secret text');
    const before = await rowsOf(b);
    expect(await list(a)).toEqual([]);
    for (const id of [987654, bReply.id]) {
      const edit = await t.call(
        DO,
        { type: 'edit', id, kind: 'text', name: 'Mine', content: 'taken' },
        a.token,
      );
      expect(edit.code).toBe('400001');
      expect(edit.status).toBe(200);
      expect((await t.call(DO, { type: 'del', id }, a.token)).code).toBe('400001');
    }
    expect(await rowsOf(b)).toEqual(before);
    expect(await list(b)).toEqual([bReply]);
  });
});
