import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_PATHS, CALLS, SPEC_CALL_PATHS, type CallPath } from '@parley/protocol';
import { createSeat, type SeatFixture } from './fixtures.js';
import { assertNoStack, createTestApp, type TestApp } from './helper.js';

/** A minimal valid body for each implemented call that needs a token. */
const AUTHED: Partial<Record<CallPath, Record<string, unknown>>> = {
  '/v1/seat/chat/getGroupList': {},
  '/v1/seat/chat/getGroupInfo': { group_id: 1 },
  '/v1/seat/chat/getChatRecord': { send_phone: '+15550001', receiver_phone: '+15550002' },
  '/v1/seat/chat/message': {
    send_phone: '+15550001',
    receiver_phone: '+15550002',
    content: 'hi',
    client_msg_id: 'message-0001',
  },
  '/v1/seat/chat/doGroup': { type: 'del', group_id: 1 },
  '/v1/seat/chat/oneClickRead': {},
  '/v1/seat/chat/delSession': { session_id: 1 },
  '/v1/seat/chat/addSession': {
    send_phone: '+15550001',
    receiver_phone: '+15550002',
    greeting: 'Hi',
    client_msg_id: 'add-session-1',
  },
  '/v1/seat/chat/moveSessionGroup': { session_id: 1, group_id: 1 },
  '/v1/seat/chat/sessionDoTop': { session_id: 1, is_top: true },
  '/v1/seat/chat/block': { session_id: 1 },
  '/v1/seat/chat/unblock': { session_id: 1 },
  '/v1/seat/chat/del_message': { msg_id: 1, scope: 'me' },
  '/v1/seat/chat/quickReplyList': {},
  '/v1/seat/chat/quickReplyDoType': { type: 'del', id: 1 },
  '/v1/seat/chat/set_remark': { session_id: 1, remark: 'x' },
  '/v1/seat/chat/get_remark': { session_id: 1 },
  '/v1/seat/chat/translate/text_v2': { texts: ['hola'], target_lang: 'EN' },
  '/v1/seat/chat/translate/languages': {},
  '/v1/seat/chat/set_customer_language': { session_id: 1, customer_language: 'ES' },
  '/v1/seat/chat/translate/round_trip': {
    session_id: 1,
    text: 'hello',
    source_lang: 'EN',
    target_lang: 'ES',
  },
  '/v1/seat/chat/translate/sent_round_trip': { session_id: 1, msg_id: 1 },
  '/v1/seat/tg/userInfo': { session_id: 1 },
  '/v1/seat/chat/batch_message': { batch_id: 'batch-0001', session_ids: [1], content: 'hi' },
  '/v1/seat/chat/batch_status': { batch_id: 'batch-0001' },
  '/v1/seat/chat/searchMessage': { keyword: 'abcdef' },
  '/v1/seat/chat/addressBook': {},
  '/v1/seat/chat/logout': {},
  '/v1/seat/chat/markUnread': { session_id: 1 },
  '/v1/seat/chat/mute': { session_id: 1, muted: true },
  '/v1/seat/chat/mutedChats': {},
  '/v1/seat/wa/templates': { send_phone: '+15550001' },
  '/v1/seat/wa/sendTemplate': {
    session_id: 1,
    client_msg_id: 'tpl-send-1',
    template: { name: 'hello_world', language: 'en_US' },
  },
  '/v1/seat/push/key': {},
  '/v1/seat/push/subscribe': {
    endpoint: 'https://fcm.googleapis.com/fcm/send/device-1',
    keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) },
  },
  '/v1/seat/push/unsubscribe': { endpoint: 'https://fcm.googleapis.com/fcm/send/device-1' },
  '/v1/seat/push/test': { endpoint: 'https://fcm.googleapis.com/fcm/send/device-1' },
  '/v1/seat/team/queue': {},
  '/v1/seat/team/take': { session_id: 1 },
  '/v1/seat/team/handOver': { session_id: 1, to_seat_id: 2, note: 'x' },
  '/v1/seat/team/backToQueue': { session_id: 1 },
  '/v1/seat/team/members': { session_id: 1 },
  '/v1/seat/team/addNote': { session_id: 1, content: 'a note' },
  '/v1/seat/team/notes': { session_id: 1 },
  '/v1/seat/team/searchNotes': { keyword: 'note' },
  '/v1/seat/team/presence': { session_id: 1, state: 'viewing' },
  '/v1/seat/team/chatRecord': { session_id: 1 },
  '/v1/seat/label/list': {},
  '/v1/seat/label/set': { session_id: 1, label_ids: [] },
};

const IMPLEMENTED: CallPath[] = [
  '/v1/seat/chat/login',
  '/v1/seat/chat/token_login',
  ...(Object.keys(AUTHED) as CallPath[]),
];

let t: TestApp;
let seat: SeatFixture;
let webDir: string;

beforeAll(async () => {
  t = await createTestApp();
  seat = await createSeat(t, 'http-seat');
});
afterAll(async () => t?.close());

describe('routing and envelopes', () => {
  it('every call of the protocol is routed', () => {
    expect(SPEC_CALL_PATHS).toHaveLength(22);
    // Every call is implemented (a protocol call without a handler would answer 501001).
    expect(CALL_PATHS.filter((p) => !IMPLEMENTED.includes(p))).toEqual([]);
  });

  it('implemented calls need a token: 400002 without one, whatever the body', async () => {
    for (const [path, body] of Object.entries(AUTHED) as [CallPath, Record<string, unknown>][]) {
      expect(CALLS[path].auth, path).toBe(true);
      const noToken = await t.call(path, body);
      expect(noToken.code, path).toBe('400002');
      expect((await t.call(path, body, 'not-a-token')).code, path).toBe('400002');
    }
  });

  it('unknown paths and wrong methods under /v1 answer a coded 404001', async () => {
    for (const req of [
      { method: 'POST', url: '/v1/seat/chat/nope' },
      { method: 'GET', url: '/v1/seat/chat/login' },
      { method: 'PUT', url: '/v1/seat/chat/getGroupList' },
      { method: 'DELETE', url: '/v1/seat/chat/doGroup' },
      { method: 'GET', url: '/v1' },
      { method: 'POST', url: '/elsewhere' },
    ] as const) {
      const res = await t.raw(req);
      expect(res.code, `${req.method} ${req.url}`).toBe('404001');
      expect(res.status).toBe(404);
      expect(res.msg).toBe('Interface does not exist');
    }
  });

  it('malformed JSON and non-object bodies answer 100001', async () => {
    const headers = { 'content-type': 'application/json', authorization: seat.token };
    const malformed = await t.raw({
      method: 'POST',
      url: '/v1/seat/chat/login',
      payload: '{"account": "x",',
      headers,
    });
    expect(malformed.code).toBe('100001');
    expect(malformed.status).toBe(200);
    expect(malformed.msg).toBe('Parameter error: body');
    const array = await t.raw({
      method: 'POST',
      url: '/v1/seat/chat/doGroup',
      payload: '[1,2]',
      headers,
    });
    expect(array.code).toBe('100001');
    const text = await t.raw({
      method: 'POST',
      url: '/v1/seat/chat/getGroupList',
      payload: 'hello',
      headers: { 'content-type': 'text/plain', authorization: seat.token },
    });
    expect(text.code).toBe('100001');
    const charset = await t.raw({
      method: 'POST',
      url: '/v1/seat/chat/getGroupList',
      payload: '{"reply":1}',
      headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
    });
    expect(charset.code).toBe('000000');
    // An empty JSON body counts as {} (the client strips empty fields).
    const empty = await t.raw({
      method: 'POST',
      url: '/v1/seat/chat/getGroupList',
      payload: '',
      headers,
    });
    expect(empty.code).toBe('000000');
  });

  it('an unexpected failure answers 500001 without a stack', async () => {
    const app = t.app;
    // A database failure: drop a table the call needs, in a throwaway app.
    const broken = await createTestApp();
    const s = await createSeat(broken, 'broken');
    await broken.db.schema.dropTable('login_attempts').execute();
    const res = await broken.call('/v1/seat/chat/login', {
      account: 'broken',
      password: 'nope-nope',
    });
    expect(res.code).toBe('500001');
    expect(res.status).toBe(500);
    expect(res.msg).toBe('Service error, please refresh and try again');
    assertNoStack(res.raw);
    expect(res.raw).not.toMatch(/login_attempts|SQL|sqlite|relation/i);
    void s;
    void app;
    await broken.close();
  });

  it('GET /healthz answers ok; without a web build GET / says so', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.json()).toEqual({ status: 'ok' });
    const root = await t.app.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(200);
    expect(root.body).toMatch(/web app is not built/);
  });
});

describe('static web app', () => {
  let web: TestApp;
  beforeAll(async () => {
    webDir = path.join(t.config.dataDir, 'web');
    mkdirSync(path.join(webDir, 'assets'), { recursive: true });
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Parley</title>');
    writeFileSync(path.join(webDir, 'assets', 'app.js'), 'console.log(1)');
    web = await createTestApp({ webDir });
  });
  afterAll(async () => web?.close());

  it('serves files, and index.html for any other GET (history mode)', async () => {
    const asset = await web.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
    for (const url of ['/', '/login', '/home/chat', '/home/addressBook?x=1', '/ban-page']) {
      const page = await web.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.body).toContain('<title>Parley</title>');
    }
    const api = await web.raw({ method: 'GET', url: '/v1/seat/chat/getGroupList' });
    expect(api.code).toBe('404001');
    const health = await web.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.json()).toEqual({ status: 'ok' });
  });
});
