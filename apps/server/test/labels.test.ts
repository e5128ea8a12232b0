import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_LABELS_MAX,
  ERROR_MESSAGES,
  LABEL_NAME_MAX,
  type AdminCallPath,
  type EventPayload,
  type EventType,
  type SessionItem,
} from '@parley/protocol';
import { adminCall, createAdmin } from './admin-helpers.js';
import { createChat, createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, usingPg, type TestApp } from './helper.js';

/**
 * Labels (issue 35): the owner defines them (admin API, audited, names unique letter case
 * aside, a fixed palette), members put them on customers under the isolation rule, the chat list
 * filters by one, and every change moves the list version of the seats whose rows show it. Real
 * server, real database (SQLite, and PostgreSQL with PARLEY_TEST_DATABASE_URL).
 */
let t: TestApp;
let ana: SeatFixture;
let bo: SeatFixture;
/** A seat of no team. */
let outsider: SeatFixture;
let adminToken: string;

const HOSTILE = '<img src=x onerror=alert(1)>';

function asOwner<P extends AdminCallPath>(path: P, body: Record<string, unknown>) {
  return adminCall(t, path, body, adminToken);
}

async function createLabel(name: string, color = 'green') {
  const r = await asOwner('/v1/admin/labels/create', { name, color });
  expect(r.code, r.raw).toBe('000000');
  return r.data.label.label_id;
}

function setLabels(seat: SeatFixture, sessionId: number, labelIds: number[]) {
  return t.call('/v1/seat/label/set', { session_id: sessionId, label_ids: labelIds }, seat.token);
}

async function labelRows(sessionId: number) {
  const rows = await t.db
    .selectFrom('chat_labels')
    .select('label_id')
    .where('session_id', '=', sessionId)
    .orderBy('label_id')
    .execute();
  return rows.map((r) => r.label_id);
}

async function versionOf(seatId: number) {
  const row = await t.db
    .selectFrom('seat_list_versions')
    .select('version')
    .where('seat_id', '=', seatId)
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

async function eventsOf<T extends EventType>(seatId: number, type: T) {
  const rows = await t.db
    .selectFrom('events')
    .select(['data'])
    .where('seat_id', '=', seatId)
    .where('type', '=', type)
    .orderBy('seq')
    .execute();
  return rows.map((r) => JSON.parse(r.data) as EventPayload<T>);
}

/** Every page of a group's list, through next_cursor. */
async function wholeList(seat: SeatFixture, extra: Record<string, unknown>, pageSize = 2) {
  const chats: SessionItem[] = [];
  const totals: number[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const r = await t.call(
      '/v1/seat/chat/getGroupInfo',
      {
        group_id: seat.groups.ungrouped,
        user_time_type: 1,
        page_size: pageSize,
        ...extra,
        ...(cursor ? { cursor } : {}),
      },
      seat.token,
    );
    expect(r.code, r.raw).toBe('000000');
    chats.push(...r.data.account_list);
    totals.push(r.data.total);
    if (!r.data.next_cursor) break;
    cursor = r.data.next_cursor;
  }
  return { chats, totals };
}

beforeAll(async () => {
  t = await createTestApp();
  ana = await createSeat(t, 'label-ana');
  bo = await createSeat(t, 'label-bo');
  outsider = await createSeat(t, 'label-out');
  adminToken = await createAdmin(t, 'label-owner');
});
afterAll(async () => t?.close());

describe('the owner defines labels', () => {
  it('create, list, rename, recolour, delete: each audited, each told to every console', async () => {
    const created = await asOwner('/v1/admin/labels/create', { name: '  Refund ', color: 'red' });
    expect(created.code, created.raw).toBe('000000');
    const id = created.data.label.label_id;
    expect(created.data.label).toEqual({ label_id: id, name: 'Refund', color: 'red', chats: 0 });

    const listed = await asOwner('/v1/admin/labels/list', {});
    expect(listed.data.labels).toContainEqual({
      label_id: id,
      name: 'Refund',
      color: 'red',
      chats: 0,
    });
    // A seat reads them too (its filter and picker).
    const seatList = await t.call('/v1/seat/label/list', {}, ana.token);
    expect(seatList.data.labels).toContainEqual({ label_id: id, name: 'Refund', color: 'red' });

    const renamed = await asOwner('/v1/admin/labels/update', { label_id: id, name: 'Refunds' });
    expect(renamed.data.label).toMatchObject({ name: 'Refunds', color: 'red' });
    const recoloured = await asOwner('/v1/admin/labels/update', { label_id: id, color: 'blue' });
    expect(recoloured.data.label).toMatchObject({ name: 'Refunds', color: 'blue' });

    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'actor', 'target', 'before', 'after'])
      .where('target_type', '=', 'label')
      .where('target_id', '=', id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['label.create', 'label.update', 'label.update']);
    expect(audit.every((a) => a.actor === 'label-owner')).toBe(true);
    expect(JSON.parse(audit[1]!.before!)).toEqual({ name: 'Refund', color: 'red' });
    expect(JSON.parse(audit[1]!.after!)).toEqual({ name: 'Refunds', color: 'red' });

    // Every seat's consoles hear of each change, with the labels as they now are.
    const told = await eventsOf(outsider.seatId, 'labels.changed');
    expect(told.at(-1)!.labels).toContainEqual({ label_id: id, name: 'Refunds', color: 'blue' });

    const deleted = await asOwner('/v1/admin/labels/delete', { label_id: id });
    expect(deleted.data).toEqual({ label_id: id });
    expect(
      (await asOwner('/v1/admin/labels/list', {})).data.labels.map((l) => l.label_id),
    ).not.toContain(id);
    const last = await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_type', '=', 'label')
      .where('target_id', '=', id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(last.action).toBe('label.delete');
    const toldAfter = await eventsOf(ana.seatId, 'labels.changed');
    expect(toldAfter.at(-1)!.labels.map((l) => l.label_id)).not.toContain(id);
  });

  it('a name another label has, letter case aside: 409006 with its message, nothing changed', async () => {
    const id = await createLabel('Urgent');
    const before = (await asOwner('/v1/admin/labels/list', {})).data.labels;
    const again = await asOwner('/v1/admin/labels/create', { name: 'URGENT', color: 'red' });
    expect(again.code).toBe('409006');
    expect(again.msg).toBe(ERROR_MESSAGES['409006']);
    const other = await createLabel('Later');
    const clash = await asOwner('/v1/admin/labels/update', { label_id: other, name: 'urgent' });
    expect(clash.code).toBe('409006');
    const after = (await asOwner('/v1/admin/labels/list', {})).data.labels;
    expect(after.filter((l) => l.label_id !== other)).toEqual(before);
    expect(after.find((l) => l.label_id === other)!.name).toBe('Later');
    // Its own name in another case is a rename, not a clash.
    const recased = await asOwner('/v1/admin/labels/update', { label_id: id, name: 'URGENT' });
    expect(recased.code, recased.raw).toBe('000000');
    expect(recased.data.label.name).toBe('URGENT');
  });

  it('bad names and colours: 100001 naming the field, never a 500, nothing stored', async () => {
    const count = async () => (await asOwner('/v1/admin/labels/list', {})).data.labels.length;
    const before = await count();
    for (const body of [
      { name: '', color: 'green' },
      { name: '   ', color: 'green' },
      { name: 'x'.repeat(LABEL_NAME_MAX + 1), color: 'green' },
      { name: 'nul\u0000inside', color: 'green' },
      { name: 'bell\u0007', color: 'green' },
      { name: 'ok', color: '#ff0000' },
      { name: 'ok', color: 'url(javascript:alert(1))' },
      { name: 42, color: 'green' },
    ]) {
      const r = await asOwner('/v1/admin/labels/create', body);
      expect(r.code, JSON.stringify(body)).toBe('100001');
      const field = (r.data as unknown as { fields: { path: string }[] }).fields[0]!.path;
      expect(['name', 'color']).toContain(field);
    }
    const id = await createLabel('Fine');
    const nul = await asOwner('/v1/admin/labels/update', { label_id: id, name: 'a\u0000b' });
    expect(nul.code).toBe('100001');
    expect(await count()).toBe(before + 1);
    // The longest name is kept whole.
    const longest = await asOwner('/v1/admin/labels/create', {
      name: 'é'.repeat(LABEL_NAME_MAX),
      color: 'pink',
    });
    expect(longest.code, longest.raw).toBe('000000');
    expect(longest.data.label.name).toBe('é'.repeat(LABEL_NAME_MAX));
  });

  it('unknown labels: 400001; a seat token opens no admin call (400002)', async () => {
    expect((await asOwner('/v1/admin/labels/update', { label_id: 999_999, name: 'x' })).code).toBe(
      '400001',
    );
    expect((await asOwner('/v1/admin/labels/delete', { label_id: 999_999 })).code).toBe('400001');
    const seatTry = await adminCall(
      t,
      '/v1/admin/labels/create',
      { name: 'S', color: 'red' },
      ana.token,
    );
    expect(seatTry.code).toBe('400002');
  });

  it('a hostile name is kept as text, byte for byte', async () => {
    const id = await createLabel(HOSTILE, 'violet');
    const seatList = await t.call('/v1/seat/label/list', {}, ana.token);
    expect(seatList.data.labels).toContainEqual({ label_id: id, name: HOSTILE, color: 'violet' });
  });

  it('50 owners create one name at once (any letter case): exactly one label is made', async () => {
    const names = Array.from({ length: 50 }, (_, i) => (i % 2 ? 'Race' : 'RACE'));
    const answers = await Promise.all(
      names.map((name) => asOwner('/v1/admin/labels/create', { name, color: 'teal' })),
    );
    const codes = answers.map((a) => a.code);
    expect(codes.filter((c) => c === '000000')).toHaveLength(1);
    expect(codes.filter((c) => c === '409006')).toHaveLength(49);
    const rows = await t.db
      .selectFrom('labels')
      .select('id')
      .where('name_key', '=', 'race')
      .execute();
    expect(rows).toHaveLength(1);
    const audits = await t.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'label.create')
      .where('target_id', '=', rows[0]!.id)
      .execute();
    expect(audits).toHaveLength(1);
  });

  it('50 renames of different labels to one name at once: exactly one wins', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 50; i++) ids.push(await createLabel(`Rename source ${i}`));
    const answers = await Promise.all(
      ids.map((label_id, i) =>
        asOwner('/v1/admin/labels/update', { label_id, name: i % 2 ? 'Target' : 'TARGET' }),
      ),
    );
    const codes = answers.map((a) => a.code);
    expect(codes.filter((c) => c === '000000')).toHaveLength(1);
    expect(codes.filter((c) => c === '409006')).toHaveLength(49);
    // Clean up: the palette's limit is for the whole workspace.
    for (const label_id of ids) await asOwner('/v1/admin/labels/delete', { label_id });
  });
});

describe('members put labels on customers', () => {
  it("a seat labels its chat: the row and events show the labels; the set is the chat's whole set", async () => {
    const vip = await createLabel('VIP', 'yellow');
    const lead = await createLabel('Lead', 'blue');
    const chat = await createChat(t.db, ana);
    const r = await setLabels(ana, chat.sessionId, [vip, lead, vip]);
    expect(r.code, r.raw).toBe('000000');
    // By name: Lead before VIP.
    expect(r.data).toEqual({
      session_id: chat.sessionId,
      labels: [
        { label_id: lead, name: 'Lead', color: 'blue' },
        { label_id: vip, name: 'VIP', color: 'yellow' },
      ],
    });
    const { chats } = await wholeList(ana, {}, 200);
    const row = chats.find((c) => c.session_id === chat.sessionId)!;
    expect(row.labels!.map((l) => l.name)).toEqual(['Lead', 'VIP']);
    // Every other row carries its (empty) labels too.
    expect(chats.every((c) => Array.isArray(c.labels))).toBe(true);
    // The seat's other consoles redraw the row.
    const updated = await eventsOf(ana.seatId, 'session.updated');
    expect(updated.at(-1)!.session).toMatchObject({ session_id: chat.sessionId });
    expect(updated.at(-1)!.session.labels!.map((l) => l.label_id)).toEqual([lead, vip]);

    const again = await setLabels(ana, chat.sessionId, [vip]);
    expect(again.data.labels.map((l) => l.label_id)).toEqual([vip]);
    expect(await labelRows(chat.sessionId)).toEqual([vip]);
    const cleared = await setLabels(ana, chat.sessionId, []);
    expect(cleared.data.labels).toEqual([]);
    expect(await labelRows(chat.sessionId)).toEqual([]);
  });

  it("another seat's chat answers exactly as a chat that does not exist, and nothing changes", async () => {
    const vip = await createLabel('Isolation', 'red');
    const chat = await createChat(t.db, ana);
    await setLabels(ana, chat.sessionId, [vip]);
    const missing = await setLabels(bo, 2_000_000_000, [vip]);
    const foreign = await setLabels(bo, chat.sessionId, []);
    expect(missing.code).toBe('400001');
    expect(foreign.raw).toBe(missing.raw.replace('2000000000', String(chat.sessionId)));
    expect({ code: foreign.code, msg: foreign.msg, data: foreign.data }).toEqual({
      code: missing.code,
      msg: missing.msg,
      data: missing.data,
    });
    expect(await labelRows(chat.sessionId)).toEqual([vip]);
    // Nor does the filter show another seat's labelled chat.
    const { chats } = await wholeList(bo, { label_id: vip });
    expect(chats).toEqual([]);
  });

  it('an unknown label, or too many: refused, nothing changes', async () => {
    const vip = await createLabel('Known', 'green');
    const chat = await createChat(t.db, ana);
    await setLabels(ana, chat.sessionId, [vip]);
    const unknown = await setLabels(ana, chat.sessionId, [vip, 999_999]);
    expect(unknown.code).toBe('400001');
    const many = await setLabels(
      ana,
      chat.sessionId,
      Array.from({ length: CHAT_LABELS_MAX + 1 }, (_, i) => i + 1),
    );
    expect(many.code).toBe('100001');
    expect(await labelRows(chat.sessionId)).toEqual([vip]);
  });

  it('a deleted label leaves every chat it was on (and its rows)', async () => {
    const gone = await createLabel('Gone soon', 'gray');
    const chat = await createChat(t.db, ana);
    await setLabels(ana, chat.sessionId, [gone]);
    const v = await versionOf(ana.seatId);
    await asOwner('/v1/admin/labels/delete', { label_id: gone });
    expect(await labelRows(chat.sessionId)).toEqual([]);
    expect(await versionOf(ana.seatId)).toBeGreaterThan(v);
    const { chats } = await wholeList(ana, {}, 200);
    expect(chats.find((c) => c.session_id === chat.sessionId)!.labels).toEqual([]);
  });
});

describe('on a team account', () => {
  let teamPhone: string;
  let accountId: number;

  beforeAll(async () => {
    // A number of its own: ana's second account, made a team account of ana and bo.
    teamPhone = nextPhone('+4479');
    const made = await asOwner('/v1/admin/accounts/create', {
      send_phone: teamPhone,
      label: 'Label team',
      seat_id: ana.seatId,
    });
    expect(made.code, made.raw).toBe('000000');
    accountId = made.data.account_id;
    const set = await asOwner('/v1/admin/teams/set', {
      account_id: accountId,
      routing: 'manual',
      capacity: 5,
      member_ids: [ana.seatId, bo.seatId],
    });
    expect(set.code, set.raw).toBe('000000');
  });

  async function customerWrites() {
    const r = await t.services.messages.receive({
      sendPhone: teamPhone,
      receiverPhone: nextPhone('+4478'),
      content: 'a question',
    });
    if ('blocked' in r) throw new Error('blocked');
    return r.sessionId;
  }

  it('any member labels a queued chat; one another member holds, or an outsider: as missing', async () => {
    const vip = await createLabel('Team VIP', 'orange');
    const queued = await customerWrites();
    const missing = await setLabels(outsider, 2_000_000_000, [vip]);
    // An outsider: the queued chat does not exist for it.
    const out = await setLabels(outsider, queued, [vip]);
    expect(out.raw).toBe(missing.raw);
    // bo, a member, labels the queued chat.
    const byBo = await setLabels(bo, queued, [vip]);
    expect(byBo.code, byBo.raw).toBe('000000');
    expect(await labelRows(queued)).toEqual([vip]);
    // ana takes it: it keeps its label, and her row shows it.
    const taken = await t.call('/v1/seat/team/take', { session_id: queued }, ana.token);
    expect(taken.code, taken.raw).toBe('000000');
    const created = await eventsOf(ana.seatId, 'session.created');
    expect(created.at(-1)!.session.labels!.map((l) => l.label_id)).toEqual([vip]);
    // Now ana holds it: bo (a member) gets the answer of a missing chat, and changes nothing.
    const byBoAgain = await setLabels(bo, queued, []);
    expect(byBoAgain.raw).toBe(missing.raw);
    expect(await labelRows(queued)).toEqual([vip]);
    const byAna = await setLabels(ana, queued, []);
    expect(byAna.code).toBe('000000');
  });

  it("the Queue's rows carry a queued chat's labels, pushed to every member; another team's never show", async () => {
    const urgent = await createLabel('Queue urgent', 'red');
    const evil = await createLabel(`${HOSTILE} q`, 'violet');
    const queued = await customerWrites();
    // Another team: the outsider's own number, its queued chat labelled by the outsider.
    const otherPhone = nextPhone('+4477');
    const other = await asOwner('/v1/admin/accounts/create', {
      send_phone: otherPhone,
      label: 'Other team',
      seat_id: outsider.seatId,
    });
    expect(other.code, other.raw).toBe('000000');
    const otherTeam = await asOwner('/v1/admin/teams/set', {
      account_id: other.data.account_id,
      routing: 'manual',
      capacity: 5,
      member_ids: [outsider.seatId],
    });
    expect(otherTeam.code, otherTeam.raw).toBe('000000');
    const r = await t.services.messages.receive({
      sendPhone: otherPhone,
      receiverPhone: nextPhone('+4478'),
      content: 'elsewhere',
    });
    if ('blocked' in r) throw new Error('blocked');
    const secret = await createLabel('Other team secret', 'gray');
    expect((await setLabels(outsider, r.sessionId, [secret])).code).toBe('000000');

    const pushedBefore = (await eventsOf(bo.seatId, 'team.queue')).length;
    expect((await setLabels(ana, queued, [urgent, evil])).code).toBe('000000');
    const expected = [
      { label_id: evil, name: `${HOSTILE} q`, color: 'violet' },
      { label_id: urgent, name: 'Queue urgent', color: 'red' },
    ];
    // The queue call: the chat's row carries its labels (by name, a hostile one byte for byte).
    for (const seat of [ana, bo]) {
      const q = await t.call('/v1/seat/team/queue', {}, seat.token);
      expect(q.code, q.raw).toBe('000000');
      const rows = q.data.teams.flatMap((team) => team.chats);
      expect(rows.find((c) => c.session_id === queued)?.labels).toEqual(expected);
      // Another team's chat and its label never show.
      expect(rows.some((c) => c.session_id === r.sessionId)).toBe(false);
      expect(q.raw).not.toContain('Other team secret');
    }
    // Every member is told the queue with the labels at once (the team.queue push).
    const pushed = await eventsOf(bo.seatId, 'team.queue');
    expect(pushed.length).toBeGreaterThan(pushedBefore);
    const row = pushed.at(-1)!.chats.find((c) => c.session_id === queued);
    expect(row?.labels).toEqual(expected);
    // The other team's member sees its own chat's label in its queue, and none of this team's.
    const theirs = await t.call('/v1/seat/team/queue', {}, outsider.token);
    const theirRows = theirs.data.teams.flatMap((team) => team.chats);
    expect(theirRows.find((c) => c.session_id === r.sessionId)?.labels).toEqual([
      { label_id: secret, name: 'Other team secret', color: 'gray' },
    ]);
    expect(theirRows.some((c) => c.session_id === queued)).toBe(false);
    expect(theirs.raw).not.toContain('Queue urgent');
  });
});

describe('the chat list filters by label', () => {
  it('only the labelled chats, in list order, paged by keyset, with an exact total', async () => {
    const seat = await createSeat(t, 'label-filter');
    const hot = await createLabel('Hot', 'red');
    const cold = await createLabel('Cold', 'blue');
    const now = Date.now();
    const labelled: number[] = [];
    for (let i = 0; i < 12; i++) {
      const chat = await createChat(t.db, seat, {
        latestTime: now - 10_000 - i * 1000,
        isTop: i === 7,
      });
      if (i % 3 === 0 || i === 7) {
        await setLabels(seat, chat.sessionId, [hot]);
        labelled.push(chat.sessionId);
      } else if (i % 3 === 1) {
        await setLabels(seat, chat.sessionId, [cold]);
      }
    }
    const { chats, totals } = await wholeList(seat, { label_id: hot }, 2);
    // Pinned first (chat 7), then newest first; each once.
    const expected = [labelled.find((_, j) => j === 3)!, ...labelled.filter((_, j) => j !== 3)];
    expect(chats.map((c) => c.session_id)).toEqual(expected);
    expect(totals.every((n) => n === labelled.length)).toBe(true);
    expect(chats.every((c) => c.labels!.some((l) => l.label_id === hot))).toBe(true);
    // Another label's filter, and a label on no chat.
    expect((await wholeList(seat, { label_id: cold }, 50)).chats).toHaveLength(3);
    const none = await createLabel('Nobody', 'gray');
    const empty = await wholeList(seat, { label_id: none });
    expect(empty.chats).toEqual([]);
    expect(empty.totals).toEqual([0]);
    // The earlier tab is filtered too (no labelled chat there).
    const earlier = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: seat.groups.ungrouped, user_time_type: 2, label_id: hot },
      seat.token,
    );
    expect(earlier.data.account_list).toEqual([]);
  });
});

describe("the list cache's rule: label changes move the list version", () => {
  it('putting on, taking off, renaming and recolouring move the holder’s version; the cached list shows it', async () => {
    const seat = await createSeat(t, 'label-cache');
    const bystander = await createSeat(t, 'label-bystander');
    const id = await createLabel('Cache me', 'green');
    const chat = await createChat(t.db, seat);
    const rowOf = async () =>
      (await wholeList(seat, {}, 200)).chats.find((c) => c.session_id === chat.sessionId)!;
    // The list is answered (and cached) before each change.
    expect((await rowOf()).labels).toEqual([]);

    let v = await versionOf(seat.seatId);
    await setLabels(seat, chat.sessionId, [id]);
    expect(await versionOf(seat.seatId)).toBeGreaterThan(v);
    expect((await rowOf()).labels).toEqual([{ label_id: id, name: 'Cache me', color: 'green' }]);

    const other = await versionOf(bystander.seatId);
    v = await versionOf(seat.seatId);
    await asOwner('/v1/admin/labels/update', { label_id: id, name: 'Cached' });
    expect(await versionOf(seat.seatId)).toBeGreaterThan(v);
    expect((await rowOf()).labels).toEqual([{ label_id: id, name: 'Cached', color: 'green' }]);

    v = await versionOf(seat.seatId);
    await asOwner('/v1/admin/labels/update', { label_id: id, color: 'pink' });
    expect(await versionOf(seat.seatId)).toBeGreaterThan(v);
    expect((await rowOf()).labels).toEqual([{ label_id: id, name: 'Cached', color: 'pink' }]);
    // A seat no chat of which has the label: its lists are not touched.
    expect(await versionOf(bystander.seatId)).toBe(other);

    v = await versionOf(seat.seatId);
    await setLabels(seat, chat.sessionId, []);
    expect(await versionOf(seat.seatId)).toBeGreaterThan(v);
    expect((await rowOf()).labels).toEqual([]);
  });

  it('a change made by hand in the database moves it too (the triggers, not the service)', async () => {
    const seat = await createSeat(t, 'label-hand');
    const id = await createLabel('By hand', 'teal');
    const chat = await createChat(t.db, seat);
    const rowOf = async () =>
      (await wholeList(seat, {}, 200)).chats.find((c) => c.session_id === chat.sessionId)!;
    expect((await rowOf()).labels).toEqual([]);
    let v = await versionOf(seat.seatId);
    await t.db
      .insertInto('chat_labels')
      .values({ session_id: chat.sessionId, label_id: id, created_at: Date.now() })
      .execute();
    expect(await versionOf(seat.seatId)).toBeGreaterThan(v);
    // The cached list is read again: at once on SQLite, within the database's notice on PostgreSQL.
    const deadline = Date.now() + 2_000;
    while ((await rowOf()).labels!.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, usingPg ? 20 : 0));
    }
    expect((await rowOf()).labels!.map((l) => l.label_id)).toEqual([id]);
    v = await versionOf(seat.seatId);
    await t.db.updateTable('labels').set({ name: 'By hand 2' }).where('id', '=', id).execute();
    expect(await versionOf(seat.seatId)).toBeGreaterThan(v);
    v = await versionOf(seat.seatId);
    await t.db.deleteFrom('labels').where('id', '=', id).execute();
    expect(await versionOf(seat.seatId)).toBeGreaterThan(v);
  });
});
