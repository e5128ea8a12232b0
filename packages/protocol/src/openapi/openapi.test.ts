import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { CALL_PATHS, CALLS } from '../calls/index.js';
import { ADMIN_CALLS, ADMIN_CALL_PATHS } from '../calls/admin-calls.js';
import { validationErrorData } from '../envelope.js';
import { media } from '../entities.js';
import {
  PLATFORM_PATHS,
  platformDeletion,
  platformDeletionAnswer,
  platformMessage,
  platformMessageAnswer,
  platformReceipt,
  platformReceiptAnswer,
} from '../platform.js';
import { CALL_EXAMPLES } from './call-examples.js';
import { ADMIN_CALL_EXAMPLES } from './admin-call-examples.js';
import { findCallRegistries, operationId } from './call-registries.js';
import { PLATFORM_EXAMPLES, UPLOAD_EXAMPLES } from './channel-examples.js';
import { buildOpenApiDocument } from './document.js';
import { SAMPLE_WORLD } from './example-world.js';

const doc = buildOpenApiDocument();
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every media-type object of the document with the place it sits. */
function mediaTypes(): { where: string; pointer: string; content: Json }[] {
  const out: { where: string; pointer: string; content: Json }[] = [];
  const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const base = `#/paths/${esc(path)}/${method}`;
      for (const [type, content] of Object.entries((op.requestBody?.content ?? {}) as Json)) {
        out.push({
          where: `${method} ${path} request ${type}`,
          pointer: `${base}/requestBody/content/${esc(type)}/schema`,
          content,
        });
      }
      for (const [status, response] of Object.entries((op.responses ?? {}) as Json)) {
        for (const [type, content] of Object.entries((response.content ?? {}) as Json)) {
          out.push({
            where: `${method} ${path} ${status} ${type}`,
            pointer: `${base}/responses/${status}/content/${esc(type)}/schema`,
            content,
          });
        }
      }
    }
  }
  return out;
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('has every call, the upload, the media GETs, the platform API and the push channel', () => {
    const paths = Object.keys(doc.paths as Json);
    for (const path of CALL_PATHS) {
      expect(doc.paths[path].post.operationId).toBe(operationId(path));
      expect(doc.paths[path].post.security).toEqual(CALLS[path].auth ? [{ seatToken: [] }] : []);
    }
    expect(paths).toEqual(
      expect.arrayContaining([
        '/v1/seat/chat/upload',
        '/v1/seat/media/{media_id}',
        '/v1/seat/media/{media_id}/thumb',
        '/v1/seat/realtime',
        ...Object.values(PLATFORM_PATHS),
        '/healthz',
        '/v1/openapi.json',
      ]),
    );
    const message = doc.paths[PLATFORM_PATHS.message].post;
    expect(message.parameters.map((p: Json) => p.name)).toEqual([
      'x-parley-timestamp',
      'x-parley-signature',
    ]);
    expect(Object.keys(message.requestBody.content)).toEqual([
      'application/json',
      'multipart/form-data',
    ]);
    expect(
      doc.webhooks.platformOutbound.post.requestBody.content['application/json'].schema,
    ).toEqual({ $ref: '#/components/schemas/PlatformOutbound' });
    // Every call answers HTTP 200 whatever its code (docs/api.md, "HTTP status").
    for (const path of CALL_PATHS)
      expect(Object.keys(doc.paths[path].post.responses)).toContain('200');
  });

  it("documents any other call registry the protocol exports, with its own token's scheme", () => {
    const found = findCallRegistries({ NOT_CALLS: { a: 1 }, CALLS, ADMIN_CALLS });
    expect(found.map((r) => [r.name, r.area])).toEqual([
      ['CALLS', 'seat'],
      ['ADMIN_CALLS', 'admin'],
    ]);
    const op = doc.paths['/v1/admin/seats/list'].post;
    expect(op.operationId).toBe('adminSeatsList');
    expect(op.security).toEqual([{ adminToken: [] }]);
    expect(doc.paths['/v1/admin/login'].post.security).toEqual([]);
    expect(doc.components.securitySchemes.adminToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    });
    expect(doc.components.schemas.AdminSeatsListResponse).toBeDefined();
    for (const path of ADMIN_CALL_PATHS) expect(doc.paths[path], path).toBeDefined();
  });

  it("holds examples that validate against the schemas they illustrate (the document's own)", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(doc, 'openapi');
    let checked = 0;
    for (const { where, pointer, content } of mediaTypes()) {
      const validate = ajv.getSchema(`openapi${pointer}`)!;
      for (const [key, example] of Object.entries((content.examples ?? {}) as Json)) {
        // A refused request is refused for breaking its schema, sometimes.
        if (where.includes(' request ') && String(example.summary).startsWith('Refused')) continue;
        if (where.includes('multipart')) continue;
        const ok = validate(example.value);
        expect(ok, `${where} example ${key}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
    // Compiling every schema of the document is CPU work that grows with the calls: 1–2 s alone,
    // 9 s at load 30 (the checks phase runs beside ESLint and the type checks).
  }, 60_000);
});

describe('the API examples', () => {
  it('give every call a valid request with its success answer, and a refusal', () => {
    for (const path of CALL_PATHS) {
      const { success, refusals } = CALL_EXAMPLES[path](SAMPLE_WORLD);
      expect(success.length, path).toBeGreaterThan(0);
      expect(refusals.length, path).toBeGreaterThan(0);
      for (const example of success) {
        const request = CALLS[path].request.safeParse(example.request);
        expect(request.success, `${path} ${example.summary}: ${request.error?.message}`).toBe(true);
        // Parsing an answer keeps it whole: nothing in the example is outside the schema.
        expect(CALLS[path].response.parse(example.response), path).toEqual(example.response);
      }
    }
    for (const path of ADMIN_CALL_PATHS) {
      const { success, refusals } = ADMIN_CALL_EXAMPLES[path](SAMPLE_WORLD);
      expect(success.length, path).toBeGreaterThan(0);
      // Every admin call shows the boundary: a seat's token is refused (login takes none).
      expect(
        refusals.some((r) => r.code === '400002' && r.token === SAMPLE_WORLD.token) ||
          path === '/v1/admin/login',
        path,
      ).toBe(true);
      for (const example of success) {
        const request = ADMIN_CALLS[path].request.safeParse(example.request);
        expect(request.success, `${path} ${example.summary}: ${request.error?.message}`).toBe(true);
        expect(ADMIN_CALLS[path].response.parse(example.response), path).toEqual(example.response);
      }
    }
  });

  it('refuse a request breaking its schema with 100001 naming the first bad field', () => {
    for (const path of CALL_PATHS) {
      for (const refusal of CALL_EXAMPLES[path](SAMPLE_WORLD).refusals) {
        if (refusal.code !== '100001') continue;
        const parsed = CALLS[path].request.safeParse(refusal.request);
        const { fields, reason } = validationErrorData.parse(refusal.data);
        // With a reason, a rule of the service refused a well-formed request (a template).
        expect(parsed.success, `${path} ${refusal.summary}`).toBe(reason !== undefined);
        expect(refusal.msg).toBe(`Parameter error: ${fields[0]!.path}`);
        if (reason !== undefined) continue;
        expect(parsed.error!.issues.map((i) => i.path.join('.'))).toEqual(
          fields.map((f) => f.path),
        );
      }
    }
  });

  it('of the upload and the platform API fit their schemas', () => {
    for (const example of UPLOAD_EXAMPLES(SAMPLE_WORLD).success) {
      expect(media.parse(example.response)).toEqual(example.response);
    }
    const schemas = {
      [PLATFORM_PATHS.message]: [platformMessage, platformMessageAnswer],
      [PLATFORM_PATHS.receipt]: [platformReceipt, platformReceiptAnswer],
      [PLATFORM_PATHS.deletion]: [platformDeletion, platformDeletionAnswer],
    } as const;
    for (const [path, [request, answer]] of Object.entries(schemas)) {
      for (const example of PLATFORM_EXAMPLES[path]!(SAMPLE_WORLD).success) {
        expect(request.safeParse(example.request).success, path).toBe(true);
        expect(answer.parse(example.response)).toEqual(example.response);
      }
    }
  });
});
