import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_CALL_PATHS,
  ADMIN_CALLS,
  CALL_PATHS,
  CALLS,
  ERROR_CODES,
  PLATFORM_PATHS,
  SUCCESS_CODE,
  UPLOAD_PATH,
  media as mediaSchema,
  platformDeletion,
  platformMessage,
  platformReceipt,
} from '@parley/protocol';
import { changed, fingerprinter, fingerprintTables, type Fingerprint } from './db-fingerprint.js';
import { LocalLibreTranslate } from './engine-servers.js';
import { createSeat, PASSWORD, type SeatFixture } from './fixtures.js';
import {
  fuzzedPayload,
  hostileValue,
  payloadBody,
  validShaped,
  type FieldArbitraries,
} from './fuzz-arbitraries.js';
import {
  anyId,
  anyPhone,
  chatPairs,
  chatsOf,
  holdingsOf,
  leaks,
  mineOrNot,
  namesTheirs,
  seatFields,
  type Holdings,
} from './fuzz-holdings.js';
import { assertNoStack, createTestApp, type Answer, type TestApp } from './helper.js';
import { ADMIN_PASSWORD, adminCall, createAdmin } from './admin-helpers.js';
import { telegramConfigFor, TelegramBotApiServer } from './telegram-bot-api-server.js';
import { WhatsAppGraphServer } from './whatsapp-graph-api-server.js';
import { corpus, multipart, type Part } from './media-helpers.js';
import { platformPost } from './platform-helpers.js';

// Property: whatever a client (or the platform) sends, every call answers a coded envelope
// (HTTP 200 for the console's calls, never a 5xx), and a refused request changes nothing:
// not the database, not the media directory. A seat's call never reaches another seat's
// data. Replay a failure with the seed it prints: PARLEY_FUZZ_SEED=<seed> (and
// PARLEY_FUZZ_RUNS=<n> for a longer run).

const SEED = Number(process.env.PARLEY_FUZZ_SEED ?? 20_261_123);
const RUNS = Number(process.env.PARLEY_FUZZ_RUNS ?? 40);
const KNOWN_CODES = new Set<string>([SUCCESS_CODE, ...Object.values(ERROR_CODES)]);
/** PARLEY_FUZZ_STATS=1 prints the codes each path answered: does the fuzz reach the services? */
const codeCounts = new Map<string, Map<string, number>>();
function count(path: string, code: string) {
  const codes = codeCounts.get(path) ?? new Map<string, number>();
  codes.set(code, (codes.get(code) ?? 0) + 1);
  codeCounts.set(path, codes);
}

let t: TestApp;
let me: SeatFixture;
let other: SeatFixture;
let fingerprint: () => Promise<Fingerprint>;

/** The rule of every answer: coded, known code, no fault. */
function expectCoded(path: string, res: Answer, opts: { httpStatus?: number } = {}) {
  count(path, res.code === ERROR_CODES.PARAMETER_ERROR ? res.msg.slice(0, 60) : res.code);
  assertNoStack(res.raw);
  if (opts.httpStatus !== undefined) expect(res.status, res.raw).toBe(opts.httpStatus);
  expect(res.status, res.raw).toBeLessThan(500);
  expect(KNOWN_CODES.has(res.code), `unknown code: ${res.raw}`).toBe(true);
  expect(res.code, res.raw).not.toBe(ERROR_CODES.SERVICE_ERROR);
}

/** Nothing changed (of one seat, or at all); the message names what did. */
function expectUnchanged(before: Fingerprint, after: Fingerprint, why: string, seatId?: number) {
  const diff = changed(before, after, seatId);
  expect(diff, `${why}: changed ${diff.join(', ')}`).toEqual([]);
}

/** Runs a property with the file's seed; a failure names the seed to replay it. */
async function check<T>(arb: fc.Arbitrary<T>, predicate: (v: T) => Promise<void>, runs = RUNS) {
  try {
    await fc.assert(fc.asyncProperty(arb, predicate), { seed: SEED, numRuns: runs });
  } catch (err) {
    // The counterexample can hold a 60,000-item array: each line is cut short.
    const cause = (err as { cause?: unknown }).cause;
    const text = `${String(err)}\n${String(cause)}`
      .split('\n')
      .map((line) => (line.length > 2000 ? `${line.slice(0, 2000)}… (cut)` : line))
      .join('\n');
    throw new Error(`replay: PARLEY_FUZZ_SEED=${SEED} PARLEY_FUZZ_RUNS=${runs}\n${text}`);
  }
}

/** How a request authenticates: mostly as the caller, sometimes not, or not quite. */
const tokenChoice = fc.oneof(
  { arbitrary: fc.constantFrom('own' as const, 'bearer' as const), weight: 10 },
  { arbitrary: fc.constantFrom('none' as const, 'garbage' as const, 'long' as const), weight: 2 },
);
type TokenChoice = 'own' | 'bearer' | 'none' | 'garbage' | 'long';
function authorizationOf(choice: TokenChoice, token: string): Record<string, string> {
  const value = {
    own: token,
    bearer: `Bearer ${token}`,
    none: null,
    garbage: 'x'.repeat(40),
    long: `Bearer ${'x'.repeat(5000)}`,
  }[choice];
  return value === null ? {} : { authorization: value };
}
/** The declared body type; null sends none. */
const contentTypes = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 6 },
  fc.constantFrom(
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'text/plain',
    null,
  ),
);

let mine: Holdings;
let theirs: Holdings;

let libre: LocalLibreTranslate;
let botApi: TelegramBotApiServer;
let graph: WhatsAppGraphServer;

beforeAll(async () => {
  // A translation engine (a local server of LibreTranslate's API), so text_v2 gets past
  // "none configured" to the translation memory and the chat's customer language.
  libre = await new LocalLibreTranslate().start();
  // A local server of Telegram's Bot API: binding a bot checks its token there.
  botApi = await new TelegramBotApiServer().start();
  // And one of the WhatsApp Cloud API: binding a number checks it there.
  graph = new WhatsAppGraphServer();
  await graph.start();
  t = await createTestApp({
    telegram: telegramConfigFor(botApi.url),
    whatsapp: { graphUrl: graph.url },
    translation: {
      providers: [{ name: 'libretranslate', url: libre.url, apiKey: null }],
      timeoutMs: 5_000,
      retries: 0,
      retryDelayMs: 5,
    },
  });
  // Only requests change the database while the properties run.
  const { jobs } = t.app.parley;
  await Promise.all([
    jobs.batchSender.stop(),
    jobs.outboxWorker.stop(),
    jobs.eventsPruner.stop(),
    jobs.telegramPoller.stop(),
  ]);
  me = await createSeat(t, 'fuzz-me', 2);
  other = await createSeat(t, 'fuzz-other', 2);
  mine = await holdingsOf(t, me, 'me');
  theirs = await holdingsOf(t, other, 'other');
  fingerprint = await fingerprinter(t, await fingerprintTables(t));
}, 60_000);
afterAll(async () => {
  if (process.env.PARLEY_FUZZ_STATS) {
    for (const [path, codes] of codeCounts) {
      console.log(path, Object.fromEntries([...codes].sort((a, b) => b[1] - a[1])));
    }
  }
  await t?.close();
  await libre?.stop();
  await botApi?.stop();
  await graph?.stop();
});

describe('the fingerprint', () => {
  it('sees a write, and only the writing seat’s rows move', async () => {
    // Read again only when the write counter moved: a write must move it, on both databases.
    const before = await fingerprint();
    expect(changed(before, await fingerprint())).toEqual([]);
    const res = await t.call(
      '/v1/seat/chat/set_remark',
      { session_id: mine.sessions[0]!, remark: `fingerprint ${Date.now()}` },
      me.token,
    );
    expect(res.code, res.raw).toBe(SUCCESS_CODE);
    const after = await fingerprint();
    expect(changed(before, after)).not.toEqual([]);
    expect(changed(before, after, other.seatId)).toEqual([]);
  });
});

describe('every call, fuzzed', () => {
  for (const path of CALL_PATHS) {
    it(`${path}: a coded answer, nothing changed when refused, never the other seat's data`, async () => {
      // Fresh chats for each call: an earlier call may have deleted or blocked them.
      const fresh = await chatsOf(t, me, `call${CALL_PATHS.indexOf(path)}`);
      const own: Holdings = {
        ...mine,
        ...fresh,
        groups: [...fresh.groups, ...mine.groups],
        clientMsgIds: [...mine.clientMsgIds, ...fresh.clientMsgIds],
      };
      // Logout ends logins: a seat of its own, logged in again after each success.
      const logout = path === '/v1/seat/chat/logout';
      let caller = logout ? await createSeat(t, 'fuzz-leaver') : me;
      let loggedOut = false;
      const arb = fc.record({
        payload: fuzzedPayload(
          CALLS[path].request,
          seatFields(path, own, theirs),
          chatPairs(own, theirs),
        ),
        token: tokenChoice,
        contentType: contentTypes,
      });
      await check(arb, async ({ payload, token, contentType }) => {
        if (loggedOut) {
          const login = await t.call('/v1/seat/chat/login', {
            account: caller.account,
            password: PASSWORD,
          });
          caller = { ...caller, token: login.data.token };
          loggedOut = false;
        }
        const before = await fingerprint();
        const res = await t.raw({
          method: 'POST',
          url: path,
          payload: payloadBody(payload),
          headers: {
            ...(contentType ? { 'content-type': contentType } : {}),
            ...authorizationOf(token, caller.token),
          },
        });
        const after = await fingerprint();
        expectCoded(path, res, { httpStatus: 200 });
        if (logout && res.code === SUCCESS_CODE) loggedOut = true;
        if (res.code === SUCCESS_CODE) {
          const parsed = CALLS[path].response.safeParse(res.data);
          expect(parsed.success, `answer breaks the protocol: ${res.raw}`).toBe(true);
        } else {
          expectUnchanged(before, after, `refused (${res.code})`);
        }
        if (CALLS[path].auth) {
          expectUnchanged(before, after, 'the other seat', other.seatId);
          if (res.code === SUCCESS_CODE) {
            expect(leaks(res.data, theirs), 'answered the other seat’s data').toEqual([]);
            // Naming the other seat's data succeeds only as a replay (the same client_msg_id
            // or batch_id again answers what is stored), and a replay changes nothing.
            if (namesTheirs(path, payload, theirs, own).length > 0) {
              expectUnchanged(before, after, 'a request naming the other seat’s data');
            }
          }
        }
      });
    }, 120_000);
  }
});

describe('every administrator call, fuzzed', () => {
  for (const path of ADMIN_CALL_PATHS) {
    it(`${path}: a coded answer, nothing changed when refused`, async () => {
      // An administrator of its own per call: a logout ends its logins.
      const account = `fuzz-admin-${ADMIN_CALL_PATHS.indexOf(path)}`;
      let token = await createAdmin(t, account);
      let loggedOut = false;
      // Seats of its own to change (a freeze or a moved account would leave the other
      // properties' seats without their logins or numbers).
      const n = ADMIN_CALL_PATHS.indexOf(path);
      const targets = [
        await createSeat(t, `fuzz-target-${n}-a`, 2),
        await createSeat(t, `fuzz-target-${n}-b`, 1),
      ];
      const seatIds = targets.map((seat) => seat.seatId);
      const accounts = await t.db
        .selectFrom('phone_accounts')
        .select('id')
        .where('seat_id', 'in', seatIds)
        .execute();
      const fields: FieldArbitraries = {
        seat_id: fc.oneof(fc.constantFrom(...seatIds), anyId),
        account_id: fc.oneof(fc.constantFrom(...accounts.map((a) => a.id)), anyId),
        outbox_id: anyId,
        admin_id: anyId,
        send_phone: fc.oneof(fc.constantFrom(...targets.flatMap((seat) => seat.phones)), anyPhone),
        account: fc.oneof(
          fc.constantFrom(...targets.map((seat) => seat.account), account),
          fc.stringMatching(/^[a-z0-9-]{1,20}$/),
        ),
        password: fc.oneof(fc.constant(ADMIN_PASSWORD), fc.constant(PASSWORD), fc.string()),
      };
      const arb = fc.record({
        payload: fuzzedPayload(ADMIN_CALLS[path].request, fields),
        token: tokenChoice,
        contentType: contentTypes,
      });
      await check(arb, async ({ payload, token: choice, contentType }) => {
        if (loggedOut) {
          const login = await adminCall(t, '/v1/admin/login', {
            account,
            password: ADMIN_PASSWORD,
          });
          token = login.data.token;
          loggedOut = false;
        }
        const before = await fingerprint();
        const res = await t.raw({
          method: 'POST',
          url: path,
          payload: payloadBody(payload),
          headers: {
            ...(contentType ? { 'content-type': contentType } : {}),
            ...authorizationOf(choice, token),
          },
        });
        const after = await fingerprint();
        expectCoded(path, res, { httpStatus: 200 });
        if (res.code === SUCCESS_CODE) {
          if (path === '/v1/admin/logout') loggedOut = true;
          const parsed = ADMIN_CALLS[path].response.safeParse(res.data);
          expect(parsed.success, `answer breaks the protocol: ${res.raw}`).toBe(true);
        } else {
          expectUnchanged(before, after, `refused (${res.code})`);
        }
      });
    }, 120_000);
  }
});

describe('the upload, fuzzed', () => {
  /** Corpus files by the kind they are uploaded as. */
  const FITTING = {
    image: ['photo.jpg', 'photo.png', 'badge.gif', 'photo.webp'],
    audio: ['tone.mp3', 'voice.ogg', 'tone.wav'],
    video: ['clip.mp4', 'clip.webm'],
    file: ['doc.pdf', 'page.html', 'script.svg', 'empty.txt', 'elf-named.png'],
  };
  const files = fc.constantFrom(...Object.values(FITTING).flat());
  const fileContent = fc.oneof(
    files.map((name) => corpus(name)),
    fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b)),
    // A file cut short.
    fc.tuple(files, fc.nat()).map(([name, n]) => {
      const bytes = corpus(name);
      return bytes.subarray(0, n % (bytes.length + 1));
    }),
  );
  const fieldValue = fc.oneof(
    fc.constantFrom('image', 'audio', 'video', 'file', '0', '1500', '86400001'),
    hostileValue.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
  );
  const fileName = fc.oneof(
    fc.constantFrom(
      'photo.jpg',
      'a',
      '../../etc/passwd',
      'x'.repeat(1000),
      'é😀.png',
      'a\u0000b.jpg',
      '\u202egpj.exe',
      'x"\r\nContent-Type: text/html',
    ),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );
  const part: fc.Arbitrary<Part> = fc.oneof(
    fc.record({ name: fc.constantFrom('kind', 'duration_ms', 'other'), value: fieldValue }),
    fc.record({
      name: fc.constantFrom('file', 'file', 'file', 'upload'),
      filename: fileName,
      content: fileContent,
      contentType: fc.constantFrom('image/jpeg', 'application/octet-stream', 'text/html'),
    }),
  );
  /** A form as the console sends it: a kind, perhaps a length, then a file of that kind. */
  const wellFormed = fc
    .constantFrom(...(Object.keys(FITTING) as (keyof typeof FITTING)[]))
    .chain((kind) =>
      fc.tuple(
        fc.constant(kind),
        fc.oneof({ arbitrary: fc.constantFrom(...FITTING[kind]), weight: 4 }, files),
        fc.option(fc.nat(86_400_000), { nil: undefined }),
        fileName,
      ),
    )
    .map(([kind, name, duration, filename]): Part[] => [
      { name: 'kind', value: kind },
      ...(duration === undefined ? [] : [{ name: 'duration_ms', value: String(duration) }]),
      {
        name: 'file',
        filename: filename.length % 3 === 0 ? filename : name,
        content: corpus(name),
      },
    ]);
  const request = fc.record({
    parts: fc.oneof(
      { arbitrary: wellFormed, weight: 3 },
      { arbitrary: fc.array(part, { maxLength: 4 }), weight: 2 },
    ),
    token: tokenChoice,
    // A form cut short, or a boundary that is not the body's.
    damage: fc.oneof(
      { arbitrary: fc.constant(null), weight: 8 },
      { arbitrary: fc.nat(), weight: 1 },
      { arbitrary: fc.constant('boundary' as const), weight: 1 },
    ),
  });

  it('a coded answer, nothing stored when refused', async () => {
    await check(
      request,
      async ({ parts, token, damage }) => {
        const { payload, contentType } = multipart(parts);
        const body =
          typeof damage === 'number' ? payload.subarray(0, damage % (payload.length + 1)) : payload;
        const before = await fingerprint();
        const res = await t.raw({
          method: 'POST',
          url: UPLOAD_PATH,
          payload: body,
          headers: {
            'content-type':
              damage === 'boundary' ? 'multipart/form-data; boundary=nope' : contentType,
            ...authorizationOf(token, me.token),
          },
        });
        const after = await fingerprint();
        expectCoded(UPLOAD_PATH, res, { httpStatus: 200 });
        if (res.code === SUCCESS_CODE) {
          expect(mediaSchema.safeParse(res.data).success, res.raw).toBe(true);
        } else {
          expectUnchanged(before, after, `refused (${res.code})`);
        }
        expectUnchanged(before, after, 'the other seat', other.seatId);
      },
      Math.ceil(RUNS * 0.75),
    );
  }, 120_000);
});

describe('the platform webhook, fuzzed', () => {
  const base64Media = fc.oneof(
    fc.constantFrom('photo.jpg', 'tone.mp3', 'doc.pdf', 'empty.txt').map((n) => ({
      data: corpus(n).toString('base64'),
      file_name: n,
    })),
    fc.record({ data: fc.string({ minLength: 1 }) }),
  );
  let taken = 0;
  const platformFields = (): FieldArbitraries => ({
    account: mineOrNot(mine.phones, theirs.phones, anyPhone),
    customer: mineOrNot(mine.customers, theirs.customers, anyPhone),
    type: fc.oneof(
      { arbitrary: fc.constant('text'), weight: 3 },
      { arbitrary: fc.constantFrom('image', 'audio', 'video', 'file'), weight: 2 },
    ),
    media: fc.option(base64Media, { nil: undefined, freq: 2 }),
    // Mostly a new platform id; sometimes one already taken (a replay, a deletion).
    id: fc.oneof(
      { arbitrary: fc.constant(null).map(() => `fuzz-${(taken += 1)}`), weight: 3 },
      {
        arbitrary: fc.constantFrom(...mine.platformIds, ...theirs.platformIds, 'fuzz-1'),
        weight: 1,
      },
      { arbitrary: fc.string({ minLength: 1, maxLength: 128 }), weight: 1 },
    ),
    msg_id: fc.oneof(
      { arbitrary: fc.constantFrom(...mine.outMessages), weight: 2 },
      mineOrNot(mine.messages, theirs.messages, anyId),
    ),
  });
  /** What the platform names together: a chat, an operator message, a taken platform id. */
  const together = () => {
    const named = (h: Holdings) => [
      ...h.outMessages.map((msg_id) => ({ account: h.phones[0]!, msg_id })),
      ...h.platformIds.map((id) => ({ account: h.phones[0]!, id })),
    ];
    return fc.oneof(
      chatPairs(mine, theirs).map((c) => ({ account: c.send_phone, customer: c.receiver_phone })),
      fc.constantFrom<Record<string, unknown>>(...named(mine), ...named(theirs)),
    );
  };
  const kinds = [
    ['message', PLATFORM_PATHS.message, platformMessage],
    ['receipt', PLATFORM_PATHS.receipt, platformReceipt],
    ['deletion', PLATFORM_PATHS.deletion, platformDeletion],
  ] as const;

  for (const [kind, url, schema] of kinds) {
    it(`${kind}: a coded answer below 500, nothing changed when refused`, async () => {
      const arb = fc.record({
        payload: fuzzedPayload(schema, platformFields(), together()),
        signing: fc.oneof(
          { arbitrary: fc.constant('signed' as const), weight: 8 },
          fc.constantFrom('wrong' as const, 'stale' as const),
        ),
        contentType: contentTypes,
      });
      await check(
        arb,
        async ({ payload, signing, contentType }) => {
          const body = payloadBody(payload);
          const before = await fingerprint();
          const res = await platformPost(t, url, body, {
            contentType: contentType ?? 'application/octet-stream',
            ...(signing === 'wrong' ? { secret: 'not-the-secret' } : {}),
            ...(signing === 'stale' ? { nowMs: Date.now() - 3_600_000 } : {}),
          });
          const after = await fingerprint();
          expectCoded(url, res);
          if (res.code !== SUCCESS_CODE) {
            expectUnchanged(before, after, `refused (${res.code})`);
          }
          // The platform speaks for the account it names: another seat's rows stay as they were.
          const account =
            'json' in payload ? (payload.json as { account?: unknown })?.account : null;
          if (mine.phones.includes(account as string)) {
            expectUnchanged(before, after, 'the other seat', other.seatId);
          }
        },
        Math.ceil(RUNS * 0.75),
      );
    }, 120_000);
  }
});

describe('the valid-shaped generator', () => {
  it('most valid-shaped bodies pass their schema, so the fuzz reaches the services', () => {
    const holdings = { ...mine };
    for (const path of CALL_PATHS) {
      const schema = CALLS[path].request;
      const samples = fc.sample(validShaped(schema, seatFields(path, holdings, theirs)), {
        seed: SEED,
        numRuns: 50,
      });
      const passing = samples.filter((s) => schema.safeParse(s).success).length;
      expect(passing, path).toBeGreaterThan(5);
    }
  });
});
