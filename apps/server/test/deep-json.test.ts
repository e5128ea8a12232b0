import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_MESSAGES, PLATFORM_PATHS, SANDBOX_KEY_HEADER } from '@parley/protocol';
import { JSON_MAX_DEPTH } from '../src/lib/json-body.js';
import { createAdmin } from './admin-helpers.js';
import { fingerprint, fingerprintTables, changed } from './db-fingerprint.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type Answer, type TestApp } from './helper.js';
import { platformPost } from './platform-helpers.js';
import { browserKey } from './sandbox-helpers.js';

// A body built to hurt: nested thousands deep, it once took seconds of the event loop (a walk
// that copied its path at every level) and past ~7,000 levels overflowed the stack (500001).
// Now any body nested deeper than JSON_MAX_DEPTH is a 100001 before anything looks at it.

const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
/** ~30 KB nested 5,000 deep inside a field, as an attacker would fill a login. */
const inField = (depth: number) =>
  `{"account":"x","password":${'[{"k":'.repeat(depth / 2)}"${'p'.repeat(2_000)}"${'}]'.repeat(depth / 2)}}`;

const BODIES: Array<[string, string]> = [
  ['10,000-deep arrays', arrays(10_000)],
  ['10,000-deep objects', objects(10_000)],
  ['a 30 KB body nested 5,000 deep in a field', inField(5_000)],
];

let t: TestApp;
let seat: SeatFixture;
let adminToken: string;
let tables: Awaited<ReturnType<typeof fingerprintTables>>;

beforeAll(async () => {
  t = await createTestApp({ sandbox: 'on' });
  seat = await createSeat(t, 'deep-json', 1);
  adminToken = await createAdmin(t, 'deep-json-admin');
  tables = await fingerprintTables(t);
});
afterAll(async () => t?.close());

/** Every route that reads a JSON body, as its caller would send it. */
const ROUTES: Array<[string, (body: string) => Promise<Answer>, number]> = [
  ['seat login (no token)', (body) => post('/v1/seat/chat/login', body, {}), 200],
  [
    'a seat call (token)',
    (body) => post('/v1/seat/chat/message', body, { authorization: seat.token }),
    200,
  ],
  ['admin login', (body) => post('/v1/admin/login', body, {}), 200],
  [
    'an admin call (token)',
    (body) => post('/v1/admin/seats/list', body, { authorization: `Bearer ${adminToken}` }),
    200,
  ],
  ['platform message (signed)', (body) => platformPost(t, PLATFORM_PATHS.message, body), 400],
  ['platform receipt (signed)', (body) => platformPost(t, PLATFORM_PATHS.receipt, body), 400],
  [
    'sandbox send',
    (body) => post('/v1/sandbox/send', body, { [SANDBOX_KEY_HEADER]: browserKey() }),
    200,
  ],
];

function post(url: string, payload: string, headers: Record<string, string>) {
  return t.raw({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

describe('deeply nested JSON bodies', () => {
  for (const [route, send, status] of ROUTES) {
    for (const [what, body] of BODIES) {
      it(`${route}: ${what} is a 100001 naming the depth, nothing changed`, async () => {
        const before = await fingerprint(t, tables);
        const res = await send(body);
        expect(res.status, res.raw).toBe(status);
        expect(res.code, res.raw).toBe(ERROR_CODES.PARAMETER_ERROR);
        // The envelope the console translates by its code, naming the body as the field.
        expect(res.msg).toBe(`${ERROR_MESSAGES['100001']}: body`);
        expect(res.data).toEqual({
          fields: [{ path: 'body', message: `nested deeper than ${JSON_MAX_DEPTH} levels` }],
        });
        expect(changed(before, await fingerprint(t, tables))).toEqual([]);
      });
    }
  }

  it(`${JSON_MAX_DEPTH} levels still parse (the schema answers); one more is refused`, async () => {
    // Brackets inside strings do not count.
    const deepest = `{"account":"[[[{{{","password":${arrays(JSON_MAX_DEPTH - 1)}}`;
    const allowed = await post('/v1/seat/chat/login', deepest, {});
    expect(allowed.code, allowed.raw).toBe(ERROR_CODES.PARAMETER_ERROR);
    expect(allowed.msg).toBe(`${ERROR_MESSAGES['100001']}: password`);
    const tooDeep = `{"account":"x","password":${arrays(JSON_MAX_DEPTH)}}`;
    const refused = await post('/v1/seat/chat/login', tooDeep, {});
    expect(refused.msg, refused.raw).toBe(`${ERROR_MESSAGES['100001']}: body`);
  });
});
