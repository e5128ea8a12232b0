import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALL_PATHS,
  CALLS,
  MEDIA_PATH_PREFIX,
  PLATFORM_PATHS,
  SANDBOX_PATHS,
  UPLOAD_PATH,
} from '@parley/protocol';
import { createGroup, createSeat, PASSWORD, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

// The rule of docs/api.md ("HTTP status"): a call of the console's protocol answers HTTP 200
// whatever its code, so a refusal in normal use is not a failed resource in the browser; HTTP
// statuses stay where HTTP is the protocol (the platform's API, media GETs, unknown paths) and
// for an unexpected fault.

let t: TestApp;
let seat: SeatFixture;

beforeAll(async () => {
  t = await createTestApp({ sandbox: 'on' });
  seat = await createSeat(t, 'status-seat');
});
afterAll(async () => t?.close());

const json = { 'content-type': 'application/json' };

describe('the HTTP status of coded answers', () => {
  it('every call refused for its token answers HTTP 200 with 400002', async () => {
    const authed = CALL_PATHS.filter((p) => CALLS[p].auth);
    expect(authed.length).toBeGreaterThan(20);
    for (const path of authed) {
      for (const token of [null, 'not-a-token']) {
        const res = await t.call(path, {}, token);
        expect([res.status, res.code], `${path} token=${token}`).toEqual([200, '400002']);
      }
    }
  });

  it('every call refused for its body answers HTTP 200 with 100001', async () => {
    for (const path of CALL_PATHS) {
      const token = CALLS[path].auth ? seat.token : undefined;
      const headers = { ...json, ...(token ? { authorization: token } : {}) };
      for (const payload of ['[1,2]', '{"account": "x",']) {
        const res = await t.raw({ method: 'POST', url: path, payload, headers });
        expect([res.status, res.code], `${path} ${payload}`).toEqual([200, '100001']);
      }
    }
  });

  it('a wrong password, a duplicate group and a missing chat answer HTTP 200', async () => {
    const wrong = await t.call('/v1/seat/chat/login', {
      account: 'status-seat',
      password: `${PASSWORD}-wrong`,
    });
    expect([wrong.status, wrong.code]).toEqual([200, '100005']);
    await createGroup(t, seat, 'Twice');
    const twice = await t.call(
      '/v1/seat/chat/doGroup',
      { type: 'add', group_name: 'Twice' },
      seat.token,
    );
    expect([twice.status, twice.code]).toEqual([200, '500002']);
    const missing = await t.call('/v1/seat/chat/get_remark', { session_id: 999_999 }, seat.token);
    expect([missing.status, missing.code]).toEqual([200, '400001']);
  });

  it('an upload refused for its token or its form answers HTTP 200', async () => {
    const noToken = await t.raw({ method: 'POST', url: UPLOAD_PATH, payload: '{}', headers: json });
    expect([noToken.status, noToken.code]).toEqual([200, '400002']);
    const notMultipart = await t.raw({
      method: 'POST',
      url: UPLOAD_PATH,
      payload: '{}',
      headers: { ...json, authorization: seat.token },
    });
    expect([notMultipart.status, notMultipart.code]).toEqual([200, '100001']);
  });

  it("the sandbox's calls answer HTTP 200 with their code", async () => {
    const badNumber = await t.raw({
      method: 'GET',
      url: `${SANDBOX_PATHS.chat}?account=x&customer=y`,
    });
    expect([badNumber.status, badNumber.code]).toEqual([200, '100001']);
    const badSend = await t.raw({
      method: 'POST',
      url: SANDBOX_PATHS.send,
      payload: '{}',
      headers: json,
    });
    expect([badSend.status, badSend.code]).toEqual([200, '100001']);
  });

  it('where HTTP is the protocol the statuses stay', async () => {
    const unknown = await t.raw({ method: 'POST', url: '/v1/seat/chat/nope', payload: '{}' });
    expect([unknown.status, unknown.code]).toEqual([404, '404001']);
    // An <img> reads the status: a media URL with a bad signature is refused in HTTP too.
    const media = await t.raw({ method: 'GET', url: `${MEDIA_PATH_PREFIX}nope?sig=x&exp=1` });
    expect([media.status, media.code]).toEqual([403, '400003']);
    const unsigned = await t.raw({
      method: 'POST',
      url: PLATFORM_PATHS.message,
      payload: '{}',
      headers: json,
    });
    expect([unsigned.status, unsigned.code]).toEqual([403, '400003']);
  });

  it('an unexpected fault answers HTTP 500 with 500001', async () => {
    const broken = await createTestApp();
    try {
      const { token } = await createSeat(broken, 'broken-seat');
      // A database failure: a table the call needs is gone.
      await broken.db.schema.dropTable('quick_replies').execute();
      const res = await broken.call('/v1/seat/chat/quickReplyList', {}, token);
      expect([res.status, res.code]).toEqual([500, '500001']);
    } finally {
      await broken.close();
    }
  });
});
