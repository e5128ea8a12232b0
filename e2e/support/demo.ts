import type { Group, SessionItem } from '@parley/protocol';
import { apiLogin, call } from './api';
import { DEMO } from './fixtures';

export type TimeTab = 1 | 2;

export interface DemoChat {
  group: Group;
  tab: TimeTab;
  session: SessionItem;
  /** Its position in the user list (pinned first, then latest activity). */
  index: number;
}

export async function demoToken(baseURL: string): Promise<string> {
  return (await apiLogin(baseURL, DEMO.account, DEMO.password)).token;
}

export async function groupList(baseURL: string, token: string) {
  return call(baseURL, '/v1/seat/chat/getGroupList', { reply: 0 }, token);
}

export async function sessionsOf(
  baseURL: string,
  token: string,
  groupId: number,
  tab: TimeTab,
): Promise<SessionItem[]> {
  const out: SessionItem[] = [];
  let cursor: string | undefined;
  do {
    const page = await call(
      baseURL,
      '/v1/seat/chat/getGroupInfo',
      { group_id: groupId, user_time_type: tab, reply: 0, page_size: 200, cursor },
      token,
    );
    out.push(...page.account_list);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return out;
}

/**
 * The demo chats matching `accept` in groups the seat can write to, nearest the top of
 * their list first (so the virtualised list shows them without much scrolling).
 */
export async function findDemoChats(
  baseURL: string,
  token: string,
  accept: (s: SessionItem, g: Group) => boolean,
): Promise<DemoChat[]> {
  const { group_list } = await groupList(baseURL, token);
  const found: DemoChat[] = [];
  for (const group of group_list) {
    if (group.disabled || group.group_type === 'blocked') continue;
    for (const tab of [1, 2] as const) {
      const sessions = await sessionsOf(baseURL, token, group.group_id, tab);
      sessions.forEach((session, index) => {
        if (accept(session, group)) found.push({ group, tab, session, index });
      });
    }
  }
  // Prefer the first time tab (a chat written to stays in it), then the top of the list.
  return found.sort((a, b) => a.tab - b.tab || a.index - b.index);
}

/** The time tab that currently lists the session (it may move once it has new activity). */
export async function tabOf(
  baseURL: string,
  token: string,
  groupId: number,
  sessionId: number,
): Promise<TimeTab> {
  for (const tab of [1, 2] as const) {
    const sessions = await sessionsOf(baseURL, token, groupId, tab);
    if (sessions.some((s) => s.session_id === sessionId)) return tab;
  }
  throw new Error(`session ${sessionId} is in neither time tab of group ${groupId}`);
}
