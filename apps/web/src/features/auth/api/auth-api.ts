import type { UserInfo } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';
import { writeItem } from '../../../lib/storage';

export async function login(account: string, password: string): Promise<UserInfo> {
  const info = await callApi('/v1/seat/chat/login', { account: account.trim(), password });
  writeItem('userInfo', info);
  return info;
}

/** The /auth hand-off: its page says what went wrong (no toast, no login-expired dialog). */
export async function tokenLogin(token: string): Promise<UserInfo> {
  const info = await callApi(
    '/v1/seat/chat/token_login',
    { token },
    { notify: false, expiredDialog: false },
  );
  writeItem('userInfo', info);
  return info;
}

/** Only same-site paths are followed after login (never another origin). */
export function safeRedirect(target: string | null, fallback = '/home/chat'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//')) return fallback;
  if (target === '/login' || target.startsWith('/login?')) return fallback;
  return target;
}
