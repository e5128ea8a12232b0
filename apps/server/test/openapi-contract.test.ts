import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_CALL_PATHS,
  CALL_PATHS,
  PLATFORM_PATHS,
  SUCCESS_CODE,
  UPLOAD_PATH,
} from '@parley/protocol';
import { callExamplesOf } from '@parley/protocol/openapi/document';
import {
  MEDIA_EXAMPLES,
  PLATFORM_EXAMPLES,
  UPLOAD_EXAMPLES,
} from '@parley/protocol/openapi/channel-examples';
import type { ExampleWorld } from '@parley/protocol/openapi/example-world';
import { apertiumTranslation, startApertium, type Apertium } from './apertium.js';
import { buildExampleWorld } from './example-world.js';
import { assertNoStack, createTestApp, type Answer, type TestApp } from './helper.js';
import { upload } from './media-helpers.js';
import { platformPost } from './platform-helpers.js';

// The OpenAPI document's examples, replayed against the running app on a world made the real
// way (example-world.ts): each answer must carry the example's code (and, for a refusal, its
// msg and data) and validate against the document's schema for that path, status and code.

let apy: Apertium;
let t: TestApp;
let w: ExampleWorld;
let doc: Record<string, unknown>;
const ajv = new Ajv2020({ strict: false, validateFormats: false });

const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
/** The schema of an answer in the served document. */
function schemaAt(path: string, method: string, status: number, branch?: 0 | 1): ValidateFunction {
  const pointer =
    `#/paths/${esc(path)}/${method}/responses/${status}/content/application~1json/schema` +
    (branch === undefined ? '' : `/oneOf/${branch}`);
  const validate = ajv.getSchema(`openapi${pointer}`);
  if (!validate) throw new Error(`the document has no schema at ${pointer}`);
  return validate;
}

function expectValid(validate: ValidateFunction, answer: Answer, what: string) {
  const body: unknown = JSON.parse(answer.raw);
  expect(validate(body), `${what}: ${ajv.errorsText(validate.errors)}\n${answer.raw}`).toBe(true);
}

async function callWith(path: string, body: unknown, token: string | null): Promise<Answer> {
  return t.raw({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    payload: JSON.stringify(body),
  });
}

beforeAll(async () => {
  apy = await startApertium();
  t = await createTestApp({ translation: apertiumTranslation(apy) });
  const served = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  expect(served.statusCode).toBe(200);
  doc = served.json();
  ajv.addSchema(doc, 'openapi');
  w = await buildExampleWorld(t);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await apy?.stop();
});

describe("the OpenAPI document's examples, replayed", () => {
  it('is served at /v1/openapi.json as committed in docs/openapi.json', () => {
    const committed = new URL('../../../docs/openapi.json', import.meta.url);
    expect(doc).toEqual(JSON.parse(readFileSync(committed, 'utf8')));
    expect(doc.openapi).toBe('3.1.0');
  });

  it('upload: a refused file and a photo', async () => {
    const examples = UPLOAD_EXAMPLES(w);
    for (const e of examples.refusals) {
      const res = await upload(t, w.token, e.fields.kind!, { name: e.file });
      expect(res.status).toBe(200);
      expect({ code: res.code, msg: res.msg, data: res.data }).toEqual({
        code: e.code,
        msg: e.msg,
        data: e.data,
      });
      expectValid(schemaAt(UPLOAD_PATH, 'post', 200, 1), res, e.summary);
    }
    for (const e of examples.success) {
      const res = await upload(t, w.token, e.fields.kind!, { name: e.file });
      expect(res.status).toBe(200);
      expect(res.code).toBe(SUCCESS_CODE);
      expectValid(schemaAt(UPLOAD_PATH, 'post', 200, 0), res, e.summary);
    }
  });

  it('media GETs: the signed URLs serve the bytes; a tampered one is refused', async () => {
    const examples = MEDIA_EXAMPLES(w);
    const image = await t.app.inject({ method: 'GET', url: examples.url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    const thumb = await t.app.inject({ method: 'GET', url: examples.thumbUrl });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    for (const e of examples.refusals) {
      const url = examples.url.replace(/sig=[^&]+/, `sig=${e.sig}`);
      const res = await t.raw({ method: 'GET', url });
      expect(res.status).toBe(e.status);
      expect({ code: res.code, msg: res.msg, data: res.data }).toEqual({
        code: e.code,
        msg: e.msg,
        data: e.data,
      });
      expectValid(schemaAt('/v1/seat/media/{media_id}', 'get', e.status), res, e.summary);
    }
  });

  for (const path of Object.values(PLATFORM_PATHS)) {
    it(`platform ${path}: signed requests, and refusals with their HTTP status`, async () => {
      const examples = PLATFORM_EXAMPLES[path]!(w);
      for (const e of examples.refusals) {
        const res = await platformPost(t, path, JSON.stringify(e.request), {
          ...(e.wrongSecret ? { secret: 'another secret' } : {}),
        });
        assertNoStack(res.raw);
        expect(res.status, e.summary).toBe(e.status);
        expect({ code: res.code, msg: res.msg, data: res.data }).toEqual({
          code: e.code,
          msg: e.msg,
          data: e.data,
        });
        expectValid(schemaAt(path, 'post', e.status), res, e.summary);
      }
      for (const e of examples.success) {
        const res = await platformPost(t, path, JSON.stringify(e.request));
        expect(res.status).toBe(200);
        expect(res.code, res.raw).toBe(SUCCESS_CODE);
        expectValid(schemaAt(path, 'post', 200), res, e.summary);
      }
    });
  }

  // Refusals first: they change nothing, so each finds the world its example describes.
  // Seat calls first (an admin example freezes a seat and moves an account).
  for (const path of [...CALL_PATHS, ...ADMIN_CALL_PATHS]) {
    it(`${path}: its refusals, then its valid requests`, async () => {
      const examples = callExamplesOf(path, w);
      expect(examples, `${path} has no examples`).not.toBeNull();
      for (const e of examples!.refusals) {
        const res = await callWith(path, e.request, e.token === undefined ? w.token : e.token);
        expect(res.status).toBe(200);
        expect({ code: res.code, msg: res.msg, data: res.data }, e.summary).toEqual({
          code: e.code,
          msg: e.msg,
          data: e.data,
        });
        expectValid(schemaAt(path, 'post', 200, 1), res, e.summary);
      }
      for (const e of examples!.success) {
        if (e.replayed === false) continue;
        const res = await callWith(path, e.request, e.token ?? w.token);
        expect(res.status).toBe(200);
        expect(res.code, `${e.summary}: ${res.raw}`).toBe(SUCCESS_CODE);
        expectValid(schemaAt(path, 'post', 200, 0), res, e.summary);
      }
    });
  }
});
