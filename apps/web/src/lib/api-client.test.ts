import { afterEach, describe, expect, it, vi } from 'vitest';
import { callApi, configureApi } from './api-client';
import { ApiError } from './api-core';

function answer(body: unknown) {
  return vi.fn(async (_url: string, _init?: RequestInit) => new Response(JSON.stringify(body)));
}

function hooks() {
  const h = {
    onExpired: vi.fn(),
    onError: vi.fn(),
    translateCode: (c: string) =>
      ({ '100005': 'Senha incorreta', '500005': 'Servidor ocupado' })[c],
  };
  configureApi(h);
  return h;
}

afterEach(() => void vi.unstubAllGlobals());

describe('callApi', () => {
  it('POSTs the JSON body without empty fields and returns data', async () => {
    const fetch = answer({ code: '000000', msg: 'success', data: { ok: 1 } });
    vi.stubGlobal('fetch', fetch);
    hooks();
    const data = await callApi('/v1/seat/chat/getGroupInfo', {
      group_id: 1,
      keyword: '',
      cursor: undefined,
    });
    expect(data).toEqual({ ok: 1 });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/v1/seat/chat/getGroupInfo');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ group_id: 1 });
  });

  it('shows the translated message of an error code', async () => {
    vi.stubGlobal('fetch', answer({ code: '100005', msg: 'Password error', data: null }));
    const h = hooks();
    await expect(callApi('/v1/seat/chat/login', { account: 'a', password: 'b' })).rejects.toThrow(
      ApiError,
    );
    expect(h.onError).toHaveBeenCalledWith('Senha incorreta', '100005');
  });

  it('opens the expired dialog on 400002 without a toast', async () => {
    vi.stubGlobal('fetch', answer({ code: '400002', msg: 'Token expired', data: null }));
    const h = hooks();
    await expect(callApi('/v1/seat/chat/getGroupList', {})).rejects.toThrow();
    expect(h.onExpired).toHaveBeenCalledTimes(1);
    expect(h.onError).not.toHaveBeenCalled();
  });

  it('shows server busy on a network error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const h = hooks();
    await expect(callApi('/v1/seat/chat/getGroupList', {})).rejects.toMatchObject({
      code: '500005',
    });
    expect(h.onError).toHaveBeenCalledWith('Servidor ocupado', '500005');
  });

  it('can stay silent for callers that show their own message', async () => {
    vi.stubGlobal('fetch', answer({ code: '500002', msg: 'Data already exists', data: null }));
    const h = hooks();
    await expect(
      callApi('/v1/seat/chat/doGroup', { type: 'add', group_name: 'x' }, { notify: false }),
    ).rejects.toMatchObject({ code: '500002', message: 'Data already exists' });
    expect(h.onError).not.toHaveBeenCalled();
  });
});
