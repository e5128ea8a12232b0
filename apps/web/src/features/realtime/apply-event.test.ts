import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { pushEvent, type EventPayload, type PushEvent } from '@parley/protocol';
import {
  chatMessage as msg,
  chatPage,
  groupList,
  recordData,
  sessionItem,
  sessionList,
  windowData,
} from '../../test/builders';
import {
  chatKey,
  chatWindowKey,
  type ChatData,
  type ChatWindowData,
} from '../messages/api/message-cache';
import { groupListKey, sessionListKey } from '../sessions/api/session-cache';
import { applyEvent } from './apply-event';

let id = 0;
/** A pushed event as the socket hands it over: parsed by the protocol's union. */
const pushed = (type: PushEvent['type'], data: unknown): PushEvent =>
  pushEvent.parse({ id: ++id, type, data, at: 1 });

function console() {
  const qc = new QueryClient();
  qc.setQueryData<ChatData>(chatKey(1), recordData(chatPage([msg(1), msg(2)])));
  qc.setQueryData<ChatWindowData>(chatWindowKey(1, 1), windowData(1, chatPage([msg(1), msg(2)])));
  qc.setQueryData(sessionListKey(1, 1, 0), sessionList(sessionItem(1), sessionItem(2)));
  const customer: EventPayload<'message.created'>[] = [];
  const effects = { onCustomerMessage: (d: EventPayload<'message.created'>) => customer.push(d) };
  const ids = (key: readonly unknown[]) =>
    qc.getQueryData<ChatData>(key)!.pages.flatMap((p) => p.list.map((m) => m.msg_id));
  return { qc, effects, customer, ids };
}

describe('applyEvent', () => {
  it('message.created: into the record and the window at the newest, the chat to the top', () => {
    const { qc, effects, customer, ids } = console();
    const session = sessionItem(2, { latest_time: 99 });
    const event = pushed('message.created', {
      message: msg(3, { session_id: 2, direction: 'in' }),
      session,
    });
    qc.setQueryData<ChatData>(chatKey(2), recordData(chatPage([])));
    applyEvent(qc, event, effects);
    applyEvent(qc, event, effects);
    expect(ids(chatKey(2))).toEqual([3]);
    const list = qc.getQueryData<ReturnType<typeof sessionList>>(sessionListKey(1, 1, 0))!;
    expect(list.pages[0]!.account_list.map((s) => s.session_id)).toEqual([2, 1]);
    expect(customer).toHaveLength(2);
  });

  it('message.deleted and message.status reach the record and the window', () => {
    const { qc, effects, ids } = console();
    applyEvent(qc, pushed('message.deleted', { session_id: 1, msg_id: 1 }), effects);
    applyEvent(qc, pushed('message.status', { session_id: 1, msg_id: 2, status: 'read' }), effects);
    expect(ids(chatKey(1))).toEqual([2]);
    expect(ids(chatWindowKey(1, 1))).toEqual([2]);
    const status = qc.getQueryData<ChatWindowData>(chatWindowKey(1, 1))!.pages[0]!.list[0]!.status;
    expect(status).toBe('read');
  });

  it('message.status with a fail reason keeps it on the message (WhatsApp: outside its window)', () => {
    const { qc, effects } = console();
    applyEvent(
      qc,
      pushed('message.status', {
        session_id: 1,
        msg_id: 2,
        status: 'failed',
        fail_reason: 'whatsapp_window',
      }),
      effects,
    );
    const m = qc.getQueryData<ChatData>(chatKey(1))!.pages[0]!.list.find((x) => x.msg_id === 2);
    expect(m).toMatchObject({ status: 'failed', fail_reason: 'whatsapp_window' });
  });

  it('message.updated replaces the whole message', () => {
    const { qc, effects } = console();
    const retracted = msg(2, { deleted: true, content: '' });
    applyEvent(qc, pushed('message.updated', { message: retracted }), effects);
    expect(qc.getQueryData<ChatData>(chatKey(1))!.pages[0]!.list[1]).toEqual(retracted);
  });

  it('session.deleted drops the chat from the lists and its history', () => {
    const { qc, effects } = console();
    applyEvent(qc, pushed('session.deleted', { session_id: 1 }), effects);
    const list = qc.getQueryData<ReturnType<typeof sessionList>>(sessionListKey(1, 1, 0))!;
    expect(list.pages[0]!.account_list.map((s) => s.session_id)).toEqual([2]);
    expect(qc.getQueryData(chatKey(1))).toBeUndefined();
    expect(qc.getQueryData(chatWindowKey(1, 1))).toBeUndefined();
  });

  it('groups.changed is the group list as getGroupList answers it', () => {
    const { qc, effects } = console();
    const groups = groupList({ un_read_count: 4 });
    applyEvent(qc, pushed('groups.changed', groups), effects);
    expect(qc.getQueryData(groupListKey(0))).toEqual(groups);
  });

  it('a payload that does not match its type is refused by the union, before any handler', () => {
    expect(pushEvent.safeParse({ id: 1, type: 'message.deleted', data: {}, at: 1 }).success).toBe(
      false,
    );
  });

  it('labels: a message push keeps the row’s labels; a label filter drops a chat without it; labels.changed renames', () => {
    const { qc, effects } = console();
    const vip = { label_id: 5, name: 'VIP', color: 'green' as const };
    qc.setQueryData(sessionListKey(1, 1, 0), sessionList(sessionItem(1, { labels: [vip] })));
    qc.setQueryData(sessionListKey(1, 1, 0, 5), sessionList(sessionItem(1, { labels: [vip] })));
    const rows = (key: readonly unknown[]) =>
      qc.getQueryData<ReturnType<typeof sessionList>>(key)!.pages[0]!.account_list;
    // A customer's message carries no labels: the row keeps its own, in both lists.
    const session = sessionItem(1, { latest_time: 99 });
    delete session.labels;
    applyEvent(
      qc,
      pushed('message.created', { message: msg(3, { session_id: 1, direction: 'in' }), session }),
      effects,
    );
    expect(rows(sessionListKey(1, 1, 0))[0]!.labels).toEqual([vip]);
    expect(rows(sessionListKey(1, 1, 0, 5)).map((s) => s.session_id)).toEqual([1]);
    // The owner renames it: every cached row shows the new name.
    applyEvent(qc, pushed('labels.changed', { labels: [{ ...vip, name: 'Gold' }] }), effects);
    expect(rows(sessionListKey(1, 1, 0))[0]!.labels!.map((l) => l.name)).toEqual(['Gold']);
    // The label is taken off: the chat leaves the filtered list, stays in the other.
    applyEvent(qc, pushed('session.updated', { session: sessionItem(1, { labels: [] }) }), effects);
    expect(rows(sessionListKey(1, 1, 0, 5))).toEqual([]);
    expect(rows(sessionListKey(1, 1, 0)).map((s) => s.session_id)).toEqual([1]);
  });
});
