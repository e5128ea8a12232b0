import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

  it("a frozen seat's signed-in call (200002) opens the dialog saying so, without a toast", async () => {
    vi.stubGlobal('fetch', answer({ code: '200002', msg: 'frozen', data: null }));
    const h = hooks();
    await expect(callApi('/v1/seat/chat/getGroupList', {})).rejects.toThrow(ApiError);
    expect(h.onExpired).toHaveBeenCalledWith('frozen');
    expect(h.onError).not.toHaveBeenCalled();
  });

  it('a frozen seat signing in (200002) is told by the login form, not the dialog', async () => {
    vi.stubGlobal('fetch', answer({ code: '200002', msg: 'frozen', data: null }));
    const h = hooks();
    await expect(callApi('/v1/seat/chat/login', { account: 'a', password: 'b' })).rejects.toThrow(
      ApiError,
    );
    expect(h.onExpired).not.toHaveBeenCalled();
    expect(h.onError).toHaveBeenCalledTimes(1);
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

/**
 * A real HTTP server whose answer stops after the headers and the first bytes of the body,
 * like a slow getChatRecord that a superseded query cancels while it arrives.
 */
async function slowBodyServer(
  onStalled: (res: ServerResponse) => void,
  onHeaders: () => void = () => undefined,
) {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"code":"000000","msg":"success","data":{"list":[');
    onStalled(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const realFetch = globalThis.fetch;
  // callApi asks for a path, as in the browser: the page's origin is this server.
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    const res = await realFetch(`http://127.0.0.1:${port}${path}`, init);
    onHeaders();
    return res;
  });
  return {
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('callApi on a real connection', () => {
  it('rejects a call cancelled while its body arrives as an abort, without a toast', async () => {
    let headersArrived!: () => void;
    const stalled = new Promise<void>((resolve) => (headersArrived = resolve));
    const server = await slowBodyServer(
      () => undefined,
      () => headersArrived(),
    );
    try {
      const h = hooks();
      const controller = new AbortController();
      const call = callApi('/v1/seat/chat/getChatRecord', { page_size: 20 } as never, {
        signal: controller.signal,
      });
      await stalled;
      controller.abort();
      const err = await call.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DOMException);
      expect((err as DOMException).name).toBe('AbortError');
      expect(h.onError).not.toHaveBeenCalled();
      expect(h.onExpired).not.toHaveBeenCalled();
    } finally {
      await server.close();
    }
  });

  it('shows server busy when the connection drops while the body arrives', async () => {
    const server = await slowBodyServer((res) => res.destroy());
    try {
      const h = hooks();
      await expect(callApi('/v1/seat/chat/getGroupList', {})).rejects.toMatchObject({
        code: '500005',
      });
      expect(h.onError).toHaveBeenCalledWith('Servidor ocupado', '500005');
    } finally {
      await server.close();
    }
  });

  it('returns the data of a body that arrives slowly', async () => {
    const server = await slowBodyServer((res) => {
      setTimeout(() => res.end(']}}'), 50);
    });
    try {
      const h = hooks();
      await expect(callApi('/v1/seat/chat/getGroupList', {})).resolves.toEqual({ list: [] });
      expect(h.onError).not.toHaveBeenCalled();
    } finally {
      await server.close();
    }
  });
});
