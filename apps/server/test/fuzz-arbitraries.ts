import fc from 'fast-check';
import { z } from 'zod';

// Inputs for the protocol fuzz test (fuzz-calls.test.ts). zod-fast-check, the maintained
// deriver, supports zod 3 only, so valid-shaped values come from the schema's JSON Schema
// (z.toJSONSchema, zod 4's public view of a schema) through the small walk below.

interface JsonSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  const?: unknown;
  default?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

/** Arbitraries by property name, used wherever that property appears: real ids, phones... */
export type FieldArbitraries = Record<string, fc.Arbitrary<unknown>>;

export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
}

/**
 * Values of the schema's shape: right types, lengths and ranges. Refinements across fields
 * (one anchor at a time, media for a media type) are not modelled, so some are refused: the
 * test wants both.
 */
export function validShaped(schema: z.ZodType, fields: FieldArbitraries = {}) {
  return fromJsonSchema(jsonSchemaOf(schema), fields);
}

/** Every top-level property name of the schema, across the alternatives of a union. */
export function propertyNames(schema: z.ZodType): string[] {
  const names = new Set<string>();
  const walk = (s: JsonSchema) => {
    Object.keys(s.properties ?? {}).forEach((k) => names.add(k));
    (s.anyOf ?? s.oneOf ?? []).forEach(walk);
  };
  walk(jsonSchemaOf(schema));
  return [...names];
}

/** C0 and C1 controls, NUL, lone surrogates, bidi and zero-width marks, among ordinary text. */
const awkwardChar = fc.constantFrom(
  '\u0000',
  '\u0001',
  '\u0008',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u200b',
  '\u202e',
  '\u2028',
  '\ufeff',
  '\ufffd',
  '\ud800',
  '\udfff',
  '\ud83d',
  '😀',
  '%',
  "'",
  '"',
  '\\',
  '_',
  '*',
  'a',
  '0',
);

/**
 * Text as people type it, any code point, and text full of the characters above (which the
 * input boundary must refuse or the databases must store).
 */
function text(constraints: { minLength?: number; maxLength?: number }) {
  return fc.oneof(
    fc.string({ ...constraints, unit: 'grapheme' }),
    fc.string({ ...constraints, unit: 'binary' }),
    {
      arbitrary: fc.string({
        ...constraints,
        unit: fc.oneof(awkwardChar, fc.constantFrom('a', 'é', ' ')),
      }),
      weight: 2,
    },
  );
}

const ABSENT = Symbol('absent');

function fromJsonSchema(s: JsonSchema, fields: FieldArbitraries): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a) => fromJsonSchema(a, fields)));
  switch (s.type) {
    case 'object': {
      // An optional property is left out half the time; one with a default (a message's
      // text, a page size) a quarter of the time, as clients mostly send it.
      const shape = Object.fromEntries(
        Object.entries(s.properties ?? {}).map(([key, value]) => {
          const arb = fields[key] ?? fromJsonSchema(value, fields);
          if (s.required?.includes(key)) return [key, arb];
          const sent = value.default === undefined ? 1 : 3;
          return [key, fc.oneof(fc.constant(ABSENT), { arbitrary: arb, weight: sent })];
        }),
      );
      return fc
        .record(shape)
        .map((v) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== ABSENT)));
    }
    case 'array':
      return fc.array(s.items ? fromJsonSchema(s.items, fields) : fc.jsonValue(), {
        minLength: s.minItems ?? 0,
        maxLength: Math.min(s.maxItems ?? 10, 10),
      });
    case 'string': {
      const lengths = { minLength: s.minLength ?? 0, maxLength: s.maxLength };
      // A URL field (a Web Push endpoint): URLs, the service then judges where they lead.
      if (s.format === 'uri') {
        return fc
          .webUrl({ validSchemes: ['https', 'http'] })
          .filter((v) => v.length <= (lengths.maxLength ?? v.length));
      }
      if (!s.pattern) return text(lengths);
      const pattern = new RegExp(s.pattern);
      const fits = (v: string) =>
        v.length >= lengths.minLength && v.length <= (lengths.maxLength ?? v.length);
      // A pattern of one character class (`^[A-Za-z0-9_-]+$`, base64url) with a length: its
      // characters drawn to that length. Filtering random matches by length would almost
      // never pass for a long exact length (a Web Push key is 87 characters) and never end.
      const onlyClass = /^\^(\[[^\]]+\])[+*]\$$/.exec(s.pattern);
      if (onlyClass && lengths.minLength > 1) {
        return fc
          .array(fc.stringMatching(new RegExp(`^${onlyClass[1]}$`)), {
            minLength: lengths.minLength,
            maxLength: lengths.maxLength ?? lengths.minLength + 10,
          })
          .map((chars) => chars.join(''))
          .filter((v) => fits(v) && pattern.test(v));
      }
      return fc.stringMatching(pattern).filter(fits);
    }
    case 'integer': {
      const min = s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : s.minimum;
      const max = s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : s.maximum;
      // fc.integer stops at 32 bits; bigInt spans the safe integers the schemas allow.
      return fc
        .bigInt({
          min: BigInt(min ?? Number.MIN_SAFE_INTEGER),
          max: BigInt(max ?? Number.MAX_SAFE_INTEGER),
        })
        .map(Number);
    }
    case 'number':
      return fc.double({ min: s.minimum, max: s.maximum, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      throw new Error(`fuzz-arbitraries: no generator for ${JSON.stringify(s)}`);
  }
}

/**
 * A JSON token written as is into the body's text: what JSON.stringify cannot produce
 * (1e999 parses to Infinity, -0 stays negative, 20 digits lose precision).
 */
export class RawToken {
  constructor(readonly text: string) {}
  toString() {
    return `RawToken(${this.text})`;
  }
}

/** The body's JSON text, RawTokens written verbatim. */
export function toJsonText(body: unknown): string {
  const raw: string[] = [];
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (!(value instanceof RawToken)) return value;
    raw.push(value.text);
    return `@@raw${raw.length - 1}@@`;
  });
  return (text ?? 'null').replace(/"@@raw(\d+)@@"/g, (_m, i: string) => raw[Number(i)]!);
}

const INT32_MAX = 2 ** 31 - 1;
/** Numbers at and past what PostgreSQL's integer, JavaScript's safe integers and dates hold. */
const edgeNumbers = fc.constantFrom(
  0,
  -1,
  1.5,
  -2.5e-7,
  INT32_MAX,
  INT32_MAX + 1,
  -INT32_MAX - 1,
  -INT32_MAX - 2,
  2 ** 32,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 1,
  Number.MAX_SAFE_INTEGER + 3,
  -Number.MAX_SAFE_INTEGER - 1,
  253_402_300_800_000,
  1e21,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
);
const rawNumbers = fc
  .constantFrom('1e999', '-1e999', '-0', '1.0', '2147483648.0', '123456789012345678901234567890')
  .map((t) => new RawToken(t));
/** Strings a number parser might take for a number, or for none. */
const numericStrings = fc.constantFrom(
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '0x10',
  '1_000',
  '2147483648',
  '9007199254740993',
  '-0',
  ' 42 ',
  '４２',
  '',
);
const awkwardText = fc.array(awkwardChar, { minLength: 1, maxLength: 12 }).map((c) => c.join(''));
const longText = fc.constantFrom(
  'a'.repeat(4097),
  'é'.repeat(5001),
  '1'.repeat(300),
  '😀'.repeat(20_000),
  ' '.repeat(10_000),
);
const hostileScalar = fc.oneof(
  fc.constantFrom(null, true, false, '', ' ', '[object Object]', '__proto__', 'null'),
  edgeNumbers,
  rawNumbers,
  numericStrings,
  awkwardText,
  longText,
);

/** Nesting built to hurt: 10,000 levels (a recursive walk overflows the stack near 7,000). */
const deepArrays = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
const deepObjects = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
const deepMixed = `${'[{"k":'.repeat(2_500)}"${'p'.repeat(2_000)}"${'}]'.repeat(2_500)}`;
const deepValue = fc
  .constantFrom(deepArrays, deepObjects, deepMixed)
  .map((text) => new RawToken(text));

/**
 * A value no field expects: wrong types, edge numbers, awkward or huge text, huge arrays,
 * nesting thousands deep.
 */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileScalar, weight: 6 },
  { arbitrary: fc.array(hostileScalar, { maxLength: 5 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string(), hostileScalar, { maxKeys: 3 }), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      Array.from({ length: 6000 }, (_, i) => i + 1),
      Array.from({ length: 60_000 }, () => 1),
      Array.from({ length: 200 }, () => INT32_MAX + 1),
    ),
    weight: 1,
  },
  { arbitrary: deepValue, weight: 1 },
);

/** What a request carries: a JSON body (RawTokens allowed) or bytes sent as they are. */
export type Payload = { json: unknown } | { raw: string | Buffer };

/** Request bodies that are not a JSON object at all, or not JSON. */
export const nonObjectPayload: fc.Arbitrary<Payload> = fc.oneof(
  fc.constantFrom<unknown>(null, [], [{}], 0, 'x', true).map((json) => ({ json })),
  fc.jsonValue().map((json) => ({ json })),
  fc
    .constantFrom(
      '',
      '{',
      '{"a":}',
      '{"a":1,}',
      "{'a':1}",
      '\ufeff{}',
      '{"a":1}{"b":2}',
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
      deepArrays,
      deepObjects,
      deepMixed,
      `{"x":"${'y'.repeat(1_100_000)}"}`,
    )
    .map((raw) => ({ raw })),
  // Bytes that are not UTF-8 inside a string, and a stray continuation byte.
  fc
    .constantFrom(
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      Buffer.from([0x7b, 0x7d, 0x80]),
    )
    .map((raw) => ({ raw })),
);

const extraKeys = fc.constantFrom('__proto__', 'constructor', 'prototype', 'seat_id', 'toString');

/**
 * Bodies for one schema: valid-shaped (they reach the services and the database) and their
 * mutations: a field given a hostile value, a field removed, a field added, no object at all.
 * `together` gives fields that only mean something together (a chat's account and customer):
 * half the bodies that have those fields take them from it.
 */
export function fuzzedPayload(
  schema: z.ZodType,
  fields: FieldArbitraries = {},
  together?: fc.Arbitrary<Record<string, unknown>>,
): fc.Arbitrary<Payload> {
  const shaped = validShaped(schema, fields).map((v) => v as Record<string, unknown>);
  const valid = together
    ? fc
        .tuple(shaped, fc.option(together, { freq: 2 }))
        .map(([body, set]) =>
          set && Object.keys(set).every((k) => k in body) ? { ...body, ...set } : body,
        )
    : shaped;
  const names = propertyNames(schema);
  const pick = (body: Record<string, unknown>, i: number) => {
    const keys = [...new Set([...names, ...Object.keys(body)])];
    return keys.length > 0 ? keys[i % keys.length]! : 'x';
  };
  // A hostile value at any place: a field (sent or not), or inside one (an array's item, a
  // nested object's field).
  const replaced = fc.tuple(valid, fc.nat(), hostileValue).map(([body, i, value]) => {
    const places = [
      ...new Set([...names, ...Object.keys(body)].map((k) => JSON.stringify([k]))),
      ...innerPaths(body).map((p) => JSON.stringify(p)),
    ];
    const place = JSON.parse(places[i % places.length] ?? '["x"]') as (string | number)[];
    return { json: setAt(body, place, value) };
  });
  const removed = fc.tuple(valid, fc.nat()).map(([body, i]) => {
    const copy = { ...body };
    delete copy[pick(body, i)];
    return { json: copy };
  });
  const added = fc
    .tuple(valid, fc.oneof(extraKeys, fc.string()), fc.jsonValue())
    .map(([body, key, value]) => {
      // A JSON text's "__proto__" is an own key; in an object literal it would set the prototype.
      const copy: Record<string, unknown> = { ...body };
      Object.defineProperty(copy, key, { value, enumerable: true, writable: true });
      return { json: copy };
    });
  return fc.oneof(
    { arbitrary: valid.map((json) => ({ json })), weight: 5 },
    { arbitrary: replaced, weight: 4 },
    { arbitrary: removed, weight: 1 },
    { arbitrary: added, weight: 1 },
    { arbitrary: nonObjectPayload, weight: 1 },
  );
}

/** Places inside the body's fields (array items, nested fields), two levels deep. */
function innerPaths(body: Record<string, unknown>): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (v: unknown, at: (string | number)[]) => {
    if (at.length > 2 || v === null || typeof v !== 'object' || v instanceof RawToken) return;
    for (const [k, child] of Object.entries(v)) {
      const place = [...at, Array.isArray(v) ? Number(k) : k];
      out.push(place);
      walk(child, place);
    }
  };
  Object.entries(body).forEach(([k, v]) => walk(v, [k]));
  // A 60,000-item array would list each item: a few are enough.
  return out.slice(0, 50);
}

/** A copy of `body` with `value` at `place`; what lies on the way is copied, not changed. */
function setAt(body: unknown, place: (string | number)[], value: unknown): unknown {
  if (place.length === 0) return value;
  const [head, ...rest] = place;
  if (Array.isArray(body)) {
    const copy = [...(body as unknown[])];
    copy[Number(head)] = setAt(copy[Number(head)], rest, value);
    return copy;
  }
  const copy: Record<string, unknown> =
    body !== null && typeof body === 'object' ? { ...(body as Record<string, unknown>) } : {};
  // defineProperty: a key named "__proto__" stays an own field, as JSON.parse makes it.
  const inner = setAt(copy[String(head)], rest, value);
  Object.defineProperty(copy, String(head), { value: inner, enumerable: true, writable: true });
  return copy;
}

/** A payload's bytes as sent, and a short text of it for a failure message. */
export function payloadBody(p: Payload): string | Buffer {
  return 'raw' in p ? p.raw : toJsonText(p.json);
}
