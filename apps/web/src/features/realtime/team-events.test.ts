import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { pushEvent, type Label, type TeamNote, type TeamQueue } from '@parley/protocol';
import { applyEvent } from './apply-event';
import { isTeamChat, teamNotesQuery, teamQueuesQuery } from '../team/api/team-api';

const queue = (account_id: number, count: number, oldest: number | null): TeamQueue => ({
  account_id,
  send_phone: `+1555000000${account_id}`,
  label: '',
  routing: 'manual',
  count,
  oldest_since: oldest,
  chats: [],
});
const note = (note_id: number): TeamNote => ({
  note_id,
  session_id: 7,
  kind: 'note',
  author: 'Ana',
  author_seat_id: 2,
  content: '<b>x</b>',
  created_at: 1,
});
let id = 0;
const effects = { onCustomerMessage: () => undefined };
const push = (type: 'team.queue' | 'team.note' | 'labels.changed', data: unknown) =>
  pushEvent.parse({ id: ++id, type, data, at: 1 });

describe('team events in the caches', () => {
  it('a pushed team.queue replaces its team in the cached queues; the others stay', () => {
    const qc = new QueryClient();
    qc.setQueryData(teamQueuesQuery().queryKey, { teams: [queue(1, 0, null), queue(2, 1, 50)] });
    applyEvent(qc, push('team.queue', queue(1, 3, 20)), effects);
    const teams = qc.getQueryData(teamQueuesQuery().queryKey)!.teams;
    expect(teams.map((t) => t.count)).toEqual([3, 1]);
    expect(isTeamChat(qc, { send_phone: '+15550000002' })).toBe(true);
    expect(isTeamChat(qc, { send_phone: '+15559999999' })).toBe(false);
  });

  it('a pushed note joins its chat once (the writer may have added it from its answer)', () => {
    const qc = new QueryClient();
    qc.setQueryData(teamNotesQuery(7).queryKey, { notes: [note(1)] });
    applyEvent(qc, push('team.note', note(2)), effects);
    applyEvent(qc, push('team.note', note(2)), effects);
    expect(qc.getQueryData(teamNotesQuery(7).queryKey)!.notes.map((n) => n.note_id)).toEqual([
      1, 2,
    ]);
  });

  it('labels.changed renames and recolours the cached queue rows’ labels by id, and drops a deleted one', () => {
    const qc = new QueryClient();
    const vip: Label = { label_id: 1, name: 'VIP', color: 'green' };
    const lead: Label = { label_id: 2, name: 'Lead', color: 'blue' };
    const chat = (session_id: number, labels: Label[]): TeamQueue['chats'][number] => ({
      session_id,
      send_phone: '+15550000001',
      receiver_phone: '+15559990000',
      customer_name: null,
      un_read_count: 0,
      latest_time: 1,
      since: 1,
      last_message: null,
      labels,
    });
    qc.setQueryData(teamQueuesQuery().queryKey, {
      teams: [{ ...queue(1, 2, 1), chats: [chat(4, [vip, lead]), chat(5, [])] }],
    });
    const gold: Label = { label_id: 1, name: 'Gold', color: 'yellow' };
    applyEvent(qc, push('labels.changed', { labels: [gold] }), effects);
    const chats = qc.getQueryData(teamQueuesQuery().queryKey)!.teams[0]!.chats;
    expect(chats.map((c) => c.labels)).toEqual([[gold], []]);
  });
});
