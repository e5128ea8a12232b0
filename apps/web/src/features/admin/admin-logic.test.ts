import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { memoryStore } from '../../test/builders';
import {
  clearAdminLogin,
  readAdminLogin,
  readAdminToken,
  writeAdminLogin,
} from './api/admin-token';
import { adminRealtimeUrl, parseAdminFrame } from './api/admin-push';
import { adminKeys, refetchScopes, rowsOf, setOverview, tzOffsetMin } from './api/admin-queries';

describe('the admin login store', () => {
  it("is kept apart from the seat's userInfo and survives its logout", () => {
    const store = memoryStore();
    store.setItem('userInfo', JSON.stringify({ token: 'seat-token' }));
    expect(readAdminToken(store)).toBeNull();
    writeAdminLogin({ token: 'admin-token', account: 'admin', expires_at: 1 }, store);
    expect(readAdminLogin(store)).toEqual({
      token: 'admin-token',
      account: 'admin',
      expires_at: 1,
    });
    store.removeItem('userInfo');
    expect(readAdminToken(store)).toBe('admin-token');
    clearAdminLogin(store);
    expect(readAdminToken(store)).toBeNull();
  });

  it('reads a damaged or foreign value as no login', () => {
    const store = memoryStore();
    store.setItem('parleyAdmin', '{not json');
    expect(readAdminLogin(store)).toBeNull();
    store.setItem('parleyAdmin', JSON.stringify({ token: '', account: 'x' }));
    expect(readAdminLogin(store)).toBeNull();
  });
});

describe('the admin push socket', () => {
  it('parses the protocol frames and skips anything else', () => {
    expect(parseAdminFrame(JSON.stringify({ kind: 'ready', heartbeat_ms: 25_000 }))).toEqual({
      kind: 'ready',
      heartbeat_ms: 25_000,
    });
    expect(
      parseAdminFrame(
        JSON.stringify({
          kind: 'event',
          type: 'admin.changed',
          data: { scopes: ['seats'] },
          at: 1,
        }),
      ),
    ).toMatchObject({ type: 'admin.changed', data: { scopes: ['seats'] } });
    expect(
      parseAdminFrame('{"kind":"event","type":"admin.changed","data":{"scopes":["x"]}}'),
    ).toBeNull();
    expect(parseAdminFrame('not json')).toBeNull();
  });

  it('follows the page scheme', () => {
    expect(adminRealtimeUrl({ protocol: 'https:', host: 'a.example' })).toBe(
      'wss://a.example/v1/admin/realtime',
    );
  });
});

describe('the admin caches', () => {
  it('a pushed overview replaces the cached one; a change hint refetches only its lists', async () => {
    const client = new QueryClient();
    const overview = { at: 1 } as never;
    setOverview(client, overview);
    expect(client.getQueryData(adminKeys.overview())).toBe(overview);
    client.setQueryData(adminKeys.seats({ status: 'all' }), { pages: [], pageParams: [] });
    client.setQueryData(adminKeys.audit({}), { pages: [], pageParams: [] });
    refetchScopes(client, ['seats']);
    expect(client.getQueryState(adminKeys.seats({ status: 'all' }))?.isInvalidated).toBe(true);
    expect(client.getQueryState(adminKeys.audit({}))?.isInvalidated).toBe(false);
    expect(client.getQueryState(adminKeys.overview())?.isInvalidated).toBe(false);
  });

  it('flattens the loaded pages and gives the local UTC offset', () => {
    expect(rowsOf({ pages: [{ list: [1, 2] }, { list: [3] }] })).toEqual([1, 2, 3]);
    expect(rowsOf(undefined)).toEqual([]);
    expect(tzOffsetMin({ getTimezoneOffset: () => -180 } as Date)).toBe(180);
  });
});
