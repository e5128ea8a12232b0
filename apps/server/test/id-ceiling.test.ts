import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ADMIN_CALL_PATHS,
  ADMIN_CALLS,
  ADMIN_EXPORT_PATHS,
  adminExportAuditQuery,
  adminExportSeatsQuery,
  adminExportSeatTotalsQuery,
  adminExportSeriesQuery,
  CALL_PATHS,
  CALLS,
  ERROR_CODES,
  ID_MAX,
  SUCCESS_CODE,
} from '@parley/protocol';
import { callExamplesOf } from '@parley/protocol/openapi/document';
import type { ExampleWorld } from '@parley/protocol/openapi/example-world';
import { buildExampleWorld } from './example-world.js';
import { assertNoStack, createTestApp, type TestApp } from './helper.js';

/**
 * Issue 34: every id a client sends has the protocol's ceiling (ID_MAX, PostgreSQL's
 * `integer`). The id fields are found in the schemas themselves (every number field named `id`,
 * `*_id` or `*_ids`), so a new call or export is swept without editing this file: each call's
 * example request, and each export's query, is sent with 2^31, 2^53, -1 and 0 in each id field.
 * Every answer is coded, never a 5xx and never a cut stream, on both databases.
 */

const VALUES = [2 ** 31, 2 ** 53, -1, 0];
const ID_NAME = /^(id|ids)$|_ids?$/;
const KNOWN_CODES = new Set<string>([SUCCESS_CODE, ...Object.values(ERROR_CODES)]);

type Path = Array<string | number>;
interface IdField {
  path: Path;
  max: number;
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  out?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
}

/** Every number field named as an id in `schema`, with its path (`[]`: any element). */
function idFields(schema: z.ZodType, at: Path = [], name = ''): IdField[] {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape!).flatMap(([k, s]) => idFields(s, [...at, k], k));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return idFields(def.innerType!, at, name);
    case 'array':
      return idFields(def.element!, [...at, -1], name);
    case 'union':
      return def.options!.flatMap((o) => idFields(o, at, name));
    case 'intersection':
      return [...idFields(def.left!, at, name), ...idFields(def.right!, at, name)];
    case 'pipe':
      return [...idFields(def.in!, at, name), ...idFields(def.out!, at, name)];
    case 'number':
      return ID_NAME.test(name)
        ? [
            {
              path: at,
              max: (schema as unknown as { maxValue: number | null }).maxValue ?? Infinity,
            },
          ]
        : [];
    default:
      return [];
  }
}

/** `body` with the field at `path` set to `value` (every element for `-1`); null if absent. */
function withValue(body: unknown, path: Path, value: number): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (head === -1) {
    if (!Array.isArray(body) || body.length === 0) return null;
    const items = body.map((b) => withValue(b, rest, value));
    return items.includes(null) ? null : items;
  }
  if (!body || typeof body !== 'object' || !(String(head) in body)) return null;
  const inner = withValue((body as Record<string, unknown>)[String(head)], rest, value);
  return inner === null ? null : { ...(body as object), [String(head)]: inner };
}

const EXPORT_QUERIES: Record<string, { schema: z.ZodType; query: Record<string, string> }> = {
  [ADMIN_EXPORT_PATHS.series]: {
    schema: adminExportSeriesQuery,
    query: { time_zone: 'UTC', from: '2026-01-01', to: '2026-01-02', seat_id: '1' },
  },
  [ADMIN_EXPORT_PATHS.seats]: { schema: adminExportSeatsQuery, query: {} },
  [ADMIN_EXPORT_PATHS.seatTotals]: {
    schema: adminExportSeatTotalsQuery,
    query: { time_zone: 'UTC', from: '2026-01-01', to: '2026-01-02' },
  },
  [ADMIN_EXPORT_PATHS.audit]: {
    schema: adminExportAuditQuery,
    query: { target_id: '1', since: '0', until: '1' },
  },
};

const registries = [
  ...CALL_PATHS.map((p) => [p, CALLS[p].request as z.ZodType] as const),
  ...ADMIN_CALL_PATHS.map((p) => [p, ADMIN_CALLS[p].request as z.ZodType] as const),
];

describe('the schemas', () => {
  it('give every id field of every call and export the ceiling', () => {
    const over: string[] = [];
    let found = 0;
    for (const [p, schema] of [
      ...registries,
      ...Object.entries(EXPORT_QUERIES).map(([p, e]) => [p, e.schema] as const),
    ]) {
      for (const f of idFields(schema)) {
        found++;
        if (f.max > ID_MAX) over.push(`${p} ${f.path.join('.')}`);
      }
    }
    expect(found).toBeGreaterThan(30);
    expect(over).toEqual([]);
  });

  it('every export of the protocol has a query here', () => {
    expect(Object.keys(EXPORT_QUERIES).sort()).toEqual(Object.values(ADMIN_EXPORT_PATHS).sort());
  });
});

describe('ids past the ceiling, negative and zero, sent to the running app', () => {
  let t: TestApp;
  let w: ExampleWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await buildExampleWorld(t);
  }, 60_000);
  afterAll(async () => t?.close());

  it('every seat and admin call answers a code, never a 5xx', async () => {
    let sent = 0;
    for (const [p, schema] of registries) {
      const example = callExamplesOf(p, w)?.success[0];
      expect(example, `${p} has no example`).toBeDefined();
      for (const f of idFields(schema)) {
        for (const value of VALUES) {
          const body = withValue(example!.request, f.path, value);
          if (body === null) continue; // this example has no such field (another branch)
          const res = await t.raw({
            method: 'POST',
            url: p,
            headers: {
              'content-type': 'application/json',
              authorization: example!.token ?? w.token,
            },
            payload: JSON.stringify(body),
          });
          const what = `${p} ${f.path.join('.')}=${value}: ${res.raw}`;
          sent++;
          expect(res.status, what).toBe(200);
          assertNoStack(res.raw);
          expect(KNOWN_CODES.has(res.code), what).toBe(true);
          expect(res.code.startsWith('5'), what).toBe(false);
          if (value > ID_MAX) expect(res.code, what).toBe('100001');
        }
      }
    }
    expect(sent).toBeGreaterThan(100);
  }, 120_000);

  it('every export answers a code before any row, never a 5xx nor a cut stream', async () => {
    for (const [p, { schema, query }] of Object.entries(EXPORT_QUERIES)) {
      for (const f of idFields(schema)) {
        for (const value of [...VALUES, 1]) {
          const q = new URLSearchParams({ ...query, [String(f.path[0])]: String(value) });
          const res = await t.app.inject({
            method: 'GET',
            url: `${p}?${q}`,
            headers: { authorization: `Bearer ${w.admin.token}` },
          });
          const what = `${p}?${q}: ${res.statusCode} ${res.body.slice(0, 200)}`;
          expect(res.statusCode, what).toBeLessThan(500);
          assertNoStack(res.body);
          // A refusal is the JSON envelope, whole; an answer is a whole CSV.
          if (value > ID_MAX || value <= 0) {
            expect(res.statusCode, what).toBe(400);
            expect(JSON.parse(res.body).code, what).toBe('100001');
          } else {
            expect(res.body.endsWith('\r\n'), what).toBe(true);
          }
        }
      }
    }
  });
});
