import { PLATFORM_PATHS, SUCCESS_CODE, type CallInput, type CallPath } from '@parley/protocol';
import { SAMPLE_WORLD, type ExampleWorld } from '@parley/protocol/openapi/example-world';
import { PASSWORD } from './fixtures.js';
import type { TestApp } from './helper.js';
import { upload } from './media-helpers.js';
import { platformPost } from './platform-helpers.js';
import { adminCall } from './admin-helpers.js';
import { outboxRepository } from '../src/modules/outbox/outbox.repository.js';

// The world the API examples name (packages/protocol/src/openapi/example-world.ts), made the
// real way: seats and phone accounts through the services the CLI uses, customers' messages
// through the platform's signed API, everything else through the calls themselves.

async function ok<P extends CallPath>(t: TestApp, path: P, body: CallInput<P>, token: string) {
  const res = await t.call(path, body, token);
  if (res.code !== SUCCESS_CODE) throw new Error(`${path}: ${res.raw}`);
  return res.data;
}

async function customerWrites(
  t: TestApp,
  id: string,
  account: string,
  customer: string,
  text: string,
) {
  const res = await platformPost(
    t,
    PLATFORM_PATHS.message,
    JSON.stringify({ id, account, customer, type: 'text', content: text }),
  );
  if (res.code !== SUCCESS_CODE) throw new Error(res.raw);
  return (res.data as { msg_id: number }).msg_id;
}

async function login(t: TestApp, account: string) {
  const res = await t.call('/v1/seat/chat/login', { account, password: PASSWORD });
  if (res.code !== SUCCESS_CODE) throw new Error(res.raw);
  return res.data;
}

export async function buildExampleWorld(t: TestApp): Promise<ExampleWorld> {
  const s = SAMPLE_WORLD;
  const otherPhone = '+15550100002';
  const otherCustomer = '+34600999999';
  await t.services.seats.create({ account: s.account, password: PASSWORD, nickname: s.nickname });
  await t.services.accounts.add({ phone: s.phone, label: s.phoneLabel });
  await t.services.accounts.assign(s.phone, s.account);
  await t.services.seats.create({ account: 'bob', password: PASSWORD });
  await t.services.accounts.add({ phone: otherPhone, label: 'Second desk' });
  await t.services.accounts.assign(otherPhone, 'bob');
  const me = await login(t, s.account);
  const spare = await login(t, s.account);
  const bob = await login(t, 'bob');

  // Customers write in; the platform delivers their messages.
  const inbound = await customerWrites(
    t,
    'wamid-1000',
    s.phone,
    s.customer,
    s.messages.inboundText,
  );
  await customerWrites(t, s.platformMessageId, s.phone, s.customer, '¿Me lo pueden enviar hoy?');
  for (const [i, customer] of Object.values(s.customers).entries()) {
    await customerWrites(t, `wamid-110${i}`, s.phone, customer, 'Hola');
  }
  await customerWrites(t, 'wamid-1200', otherPhone, otherCustomer, 'Hola');

  const { group_list: groupList } = await ok(t, '/v1/seat/chat/getGroupList', {}, me.token);
  const groupOf = (type: string) => groupList.find((g) => g.group_type === type)!.group_id;
  const chatsOf = async (token: string, groupId: number) =>
    new Map(
      (
        await ok(t, '/v1/seat/chat/getGroupInfo', { group_id: groupId, page_size: 50 }, token)
      ).account_list.map((c) => [c.receiver_phone, c.session_id]),
    );
  const chats = await chatsOf(me.token, groupOf('ungrouped'));
  const bobGroups = await ok(t, '/v1/seat/chat/getGroupList', {}, bob.token);
  const bobUngrouped = bobGroups.group_list.find((g) => g.group_type === 'ungrouped')!.group_id;
  const otherSeat = (await chatsOf(bob.token, bobUngrouped)).get(otherCustomer)!;
  const sessions = {
    main: chats.get(s.customer)!,
    toDelete: chats.get(s.customers.toDelete)!,
    toBlock: chats.get(s.customers.toBlock)!,
    blocked: chats.get(s.customers.blocked)!,
    otherSeat,
  };
  await ok(t, '/v1/seat/chat/block', { session_id: sessions.blocked }, me.token);

  const reply = await ok(
    t,
    '/v1/seat/chat/message',
    {
      send_phone: s.phone,
      receiver_phone: s.customer,
      content: 'Hello! Your order ships tomorrow.',
      client_msg_id: s.messages.outboundClientId,
    },
    me.token,
  );
  const group = async (name: string) =>
    (await ok(t, '/v1/seat/chat/doGroup', { type: 'add', group_name: name }, me.token)).group
      .group_id;
  const custom = await group(s.groups.customName);
  const toDeleteGroup = await group(s.groups.toDeleteName);

  const photo = await upload(t, me.token, 'image', { name: 'photo.jpg' });
  if (photo.code !== SUCCESS_CODE) throw new Error(photo.raw);
  const quickReply = async (name: string, content: string) =>
    (
      await ok(
        t,
        '/v1/seat/chat/quickReplyDoType',
        { type: 'add', kind: 'text', name, content },
        me.token,
      )
    ).id;
  const text = await quickReply('Greeting', 'Hello! How can I help you today?');
  const toDeleteReply = await quickReply('Old greeting', 'Hi');
  await ok(
    t,
    '/v1/seat/chat/batch_message',
    { batch_id: s.batchId, session_ids: [sessions.main], content: 'We are open on Sunday.' },
    me.token,
  );

  // The administrator's side: its logins, a seat and account the examples change, and a
  // delivery that failed (no platform answers in the test app: the row is marked as the worker
  // marks one after its last attempt).
  await t.services.adminAuth.create(
    { account: s.admin.account, password: s.admin.password },
    { type: 'cli', name: 'cli' },
  );
  const adminLogin = async () => {
    const res = await adminCall(t, '/v1/admin/login', {
      account: s.admin.account,
      password: s.admin.password,
    });
    if (res.code !== SUCCESS_CODE) throw new Error(res.raw);
    return res.data;
  };
  const owner = await adminLogin();
  const ownerSpare = await adminLogin();
  const erin = await t.services.seats.create({ account: s.admin.seatAccount, password: PASSWORD });
  const erinAccount = await t.services.accounts.add({
    phone: s.admin.accountPhone,
    label: 'Desk 3',
    seat: erin.id,
  });
  const bobSeat = await t.services.seats.require('bob');
  await outboxRepository.insert(t.db, {
    seat_id: me.seat_id,
    msg_id: reply.msg_id,
    kind: 'message',
    request_id: null,
  });
  const failed = await t.db
    .selectFrom('outbox')
    .select('id')
    .where('msg_id', '=', reply.msg_id)
    .executeTakeFirstOrThrow();
  await outboxRepository.finish(t.db, failed.id, 'failed', 'platform answered 400');

  return {
    ...s,
    admin: {
      ...s.admin,
      adminId: owner.admin_id,
      token: owner.token,
      spareToken: ownerSpare.token,
      expiresAt: owner.expires_at,
      seatId: erin.id,
      accountId: erinAccount.id,
      otherSeatId: bobSeat.id,
      failedOutboxId: failed.id,
      failedMsgId: reply.msg_id,
    },
    seatId: me.seat_id,
    token: me.token,
    spareToken: spare.token,
    expiresAt: me.expires_at,
    now: Date.now(),
    sessions,
    groups: {
      ...s.groups,
      ungrouped: groupOf('ungrouped'),
      blocked: groupOf('blocked'),
      tgLinkPushed: groupOf('tg_link_pushed'),
      custom,
      toDelete: toDeleteGroup,
    },
    messages: { ...s.messages, inbound, outbound: reply.msg_id },
    media: {
      id: photo.data.media_id,
      url: photo.data.url,
      thumbUrl: photo.data.thumb_url!,
      size: photo.data.size,
      width: photo.data.width!,
      height: photo.data.height!,
    },
    quickReplies: { text, toDelete: toDeleteReply },
  };
}
