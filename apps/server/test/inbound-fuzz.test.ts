import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS } from '@parley/protocol';
import { createAdmin } from './admin-helpers.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { hostileValue } from './fuzz-arbitraries.js';
import { assertNoStack, type TestApp } from './helper.js';
import { platformAt, platformPost } from './platform-helpers.js';
import { startReceiver } from './platform-receiver.js';
import { WhatsAppGraphServer, type GraphNumber } from './whatsapp-graph-api-server.js';
import { bindNumber, deliverWebhook, whatsappApp } from './whatsapp-helpers.js';

// Property (issue 33): whatever shape a signed delivery has, the inbound door answers it
// without a 5xx, and every well-formed message in it is stored, however bad its neighbours.
// Replay a failure with the seed it prints: PARLEY_FUZZ_SEED=<seed> (PARLEY_FUZZ_RUNS=<n>).
const SEED = Number(process.env.PARLEY_FUZZ_SEED ?? 20_261_129);
const RUNS = Number(process.env.PARLEY_FUZZ_RUNS ?? 25);

const graph = new WhatsAppGraphServer();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let t: TestApp;
let seat: SeatFixture;
let number: GraphNumber;
let n = 0;

beforeAll(async () => {
  await graph.start();
  receiver = await startReceiver('test-platform-secret');
  ({ t } = await whatsappApp(graph, { platform: platformAt(receiver.url) }));
  const adminToken = await createAdmin(t, 'fuzz-in-admin');
  seat = await createSeat(t, 'fuzz-in-seat', 2);
  number = graph.addNumber({ verifiedName: 'Fuzz Tiles', qualityRating: 'GREEN' });
  await bindNumber(t, adminToken, seat, number);
});
afterAll(async () => {
  await t?.close();
  await graph.stop();
  await receiver?.close();
});

/** A text a customer may write: any characters (NULs, surrogates, controls), any length. */
const anyText = fc.oneof(
  fc.string({ minLength: 1, maxLength: 50, unit: 'binary' }),
  fc.string({ minLength: 1, maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  fc.constant('w'.repeat(6000)),
);
/** A text with something left to show once NULs are stripped. */
const shown = anyText.map((s) => `ok ${s}`);

/** A message of Meta's shape (wamid unique) or not; `good` says which. */
const waItem = (waId: string) =>
  fc
    .oneof(
      shown.map((body) => ({ good: true, value: { type: 'text', text: { body } } })),
      fc
        .record({
          key: fc.constantFrom('from', 'id', 'type', 'text', 'timestamp', 'context'),
          v: hostileValue,
        })
        .map(({ key, v }) => ({
          good: false,
          value: { type: 'text', text: { body: 'bad' }, [key]: v },
        })),
      hostileValue.map((v) => ({ good: false, raw: v })),
    )
    .map((item) => {
      const id = `wamid.fuzz-${process.pid}-${++n}`;
      if ('raw' in item) return { good: false, id, message: item.raw };
      return {
        good: item.good,
        id,
        message: {
          from: waId,
          id,
          timestamp: String(Math.floor(Date.now() / 1000)),
          ...item.value,
        },
      };
    });

describe('signed deliveries of random shapes', () => {
  it('WhatsApp: no 5xx, and the good messages of each delivery stored', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(waItem('49153000' + String(process.pid % 100000).padStart(5, '0')), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.oneof(fc.constant(undefined), hostileValue),
        fc.oneof(fc.constant(undefined), hostileValue),
        async (items, statuses, contacts) => {
          const payload = graph.envelope(number, {
            ...(contacts !== undefined ? { contacts } : {}),
            ...(statuses !== undefined ? { statuses } : {}),
            messages: items.map((i) => i.message),
          });
          const res = await deliverWebhook(t, number, payload);
          expect(res.status, res.body).toBeLessThan(500);
          assertNoStack(res.body);
          const good = items.filter((i) => i.good).map((i) => i.id);
          if (good.length === 0) return;
          const stored = await t.db
            .selectFrom('messages')
            .select('external_id')
            .where('external_id', 'in', good)
            .execute();
          expect(stored.map((s) => s.external_id).sort()).toEqual([...good].sort());
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  }, 240_000);

  it('platform: no 5xx, and a well-formed message stored whatever its neighbours', async () => {
    const account = seat.phones[1]!;
    const field = fc.constantFrom(
      'id',
      'account',
      'customer',
      'type',
      'content',
      'name',
      'sent_at',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            // The platform is told what it sent wrong (a NUL, over 4,096): its good texts have
            // neither.
            shown
              .map((s) => s.replaceAll('\u0000', '').slice(0, 4096))
              .map((content) => ({ good: true, over: {} as Record<string, unknown>, content })),
            fc
              .record({ key: field, v: hostileValue })
              .map(({ key, v }) => ({ good: false, over: { [key]: v }, content: 'x' })),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        async (items) => {
          const sent = await Promise.all(
            items.map(async (item) => {
              const id = `fz-${process.pid}-${++n}`;
              const body = {
                id,
                account,
                customer: nextPhone('+4481'),
                type: 'text',
                content: item.content,
                ...item.over,
              };
              const res = await platformPost(t, PLATFORM_PATHS.message, JSON.stringify(body));
              expect(res.status, res.raw).toBeLessThan(500);
              return { ...item, id, res };
            }),
          );
          for (const s of sent.filter((x) => x.good)) {
            expect(s.res.code, s.res.raw).toBe('000000');
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  }, 240_000);
});
