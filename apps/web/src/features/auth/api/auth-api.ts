import type { UserInfo } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';
import { writeItem } from '../../../lib/storage';

export async function login(account: string, password: string): Promise<UserInfo> {
  const info = await callApi('/v1/seat/chat/login', { account: account.trim(), password });
  writeItem('userInfo', info);
  return info;
}

export async function tokenLogin(token: string): Promise<UserInfo> {
  const info = await callApi('/v1/seat/chat/token_login', { token }, { notify: false });
  writeItem('userInfo', info);
  return info;
}

/** Only same-site paths are followed after login (never another origin). */
export function safeRedirect(target: string | null, fallback = '/home/chat'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//')) return fallback;
  if (target === '/login' || target.startsWith('/login?')) return fallback;
  return target;
}
