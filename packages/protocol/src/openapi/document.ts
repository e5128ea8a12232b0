import { ADMIN_CALL_EXAMPLES } from './admin-call-examples.js';
import * as contract from '../index.js';
import {
  ERROR_CODES,
  ERROR_MESSAGES,
  EVENT_PAYLOADS,
  MEDIA_PATH_PREFIX,
  PLATFORM_PATHS,
  PLATFORM_SIGNATURE_HEADER,
  PLATFORM_TIMESTAMP_HEADER,
  REALTIME_PATH,
  SUCCESS_CODE,
  UPLOAD_PATH,
} from '../index.js';
import {
  CALL_EXAMPLES,
  type CallExamples,
  type RefusalExample,
  type SuccessExample,
} from './call-examples.js';
import {
  componentName,
  findCallRegistries,
  operationId,
  type CallRegistryInfo,
} from './call-registries.js';
import { MEDIA_EXAMPLES, PLATFORM_EXAMPLES, UPLOAD_EXAMPLES } from './channel-examples.js';
import { SAMPLE_WORLD, type ExampleWorld } from './example-world.js';
import { ref, SchemaSet, type JsonSchema } from './schemas.js';

export const OPENAPI_PATH = '/v1/openapi.json' as const;
/** Where the server renders the document for people. */
export const API_VIEWER_PATH = '/docs/api' as const;

type Json = Record<string, unknown>;

/** Examples of every call of every registry, by path (a registry without examples has none). */
const EXAMPLES_BY_PATH: Record<string, (w: ExampleWorld) => CallExamples> = {
  ...CALL_EXAMPLES,
  ...ADMIN_CALL_EXAMPLES,
};

export function callExamplesOf(path: string, w: ExampleWorld): CallExamples | null {
  return EXAMPLES_BY_PATH[path]?.(w) ?? null;
}

/** The call registries of the protocol (CALLS, and any other registry it exports). */
export function protocolCallRegistries(): CallRegistryInfo[] {
  return findCallRegistries(contract as unknown as Record<string, unknown>);
}

const errorCodes = Object.values(ERROR_CODES);

const codesTable = [
  '| code | message |',
  '|---|---|',
  `| ${SUCCESS_CODE} | success |`,
  ...errorCodes.map((c) => `| ${c} | ${ERROR_MESSAGES[c]} |`),
].join('\n');

const DESCRIPTION = `Parley's HTTP API, generated from the protocol package's schemas
(packages/protocol). docs/api.md says the same in prose.

**Calls.** Every call is \`POST\` with a JSON body and answers the envelope
\`{ "code", "msg", "data" }\`: \`code\` is \`${SUCCESS_CODE}\` on success (clients also accept
\`200\`), otherwise one of the codes below with \`data\` null or saying why (\`100001\` names
every bad field in \`data.fields\`). A call that needs a token takes the one \`login\` returned
in \`Authorization\` (the raw token, or \`Bearer <token>\`).

**HTTP status.** The outcome of a call is its \`code\`, never the HTTP status: every answer the
server produced to a call (and to the upload) is **HTTP 200** whatever its code. A 404 (code
\`404001\`) means the path or method is not a call, a 500 (\`500001\`) an unexpected fault.
HTTP keeps its own statuses where HTTP itself is the protocol: the media GETs (304, 206, 403,
404, 416) and the messaging platform's signed API (it retries on \`5xx\`, never on \`4xx\`).

**Push.** Changes come back on a WebSocket (\`${REALTIME_PATH}\`): see that path and the
\`PushEvent\` and \`ServerFrame\` schemas.

**Codes.**

${codesTable}`;

/** The error envelope, with `data` checked per code where the code says what it carries. */
function errorEnvelope(): JsonSchema {
  return {
    type: 'object',
    description:
      'A refused request: `data` is null or says why (100001/400005: the bad fields; 422001/501002 and a failed translation: what each engine answered; 400003: the reason).',
    properties: {
      code: ref('ErrorCode'),
      msg: { type: 'string' },
      data: { anyOf: [{ type: 'null' }, { type: 'object' }] },
    },
    required: ['code', 'msg', 'data'],
    allOf: [
      {
        if: { properties: { code: { enum: ['100001', '400005'] } } },
        then: { properties: { data: ref('ValidationErrorData') } },
      },
      {
        if: { properties: { code: { enum: ['422001', '501002'] } } },
        then: { properties: { data: ref('TranslationErrorData') } },
      },
      {
        if: { properties: { code: { const: '400003' } } },
        then: { properties: { data: { anyOf: [{ type: 'null' }, ref('RefusalReasonData')] } } },
      },
    ],
  };
}

const successEnvelope = (data: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: { code: { type: 'string', const: SUCCESS_CODE }, msg: { type: 'string' }, data },
  required: ['code', 'msg', 'data'],
});

/** Example keys: the summary in kebab-case, made unique. */
function keyed<T extends { summary: string }>(
  items: T[],
  toValue: (item: T) => Json,
): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const item of items) {
    const base =
      item.summary
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'example';
    let key = base;
    for (let n = 2; key in out; n++) key = `${base}-${n}`;
    out[key] = toValue(item);
  }
  return out;
}

const tokenNote = (token: string | null | undefined, w: ExampleWorld) =>
  token === null
    ? 'Sent without a token.'
    : token !== undefined && token !== w.token
      ? `Sent with the token \`${token}\`.`
      : undefined;

function exampleValue(summary: string, value: unknown, description?: string): Json {
  return { summary, ...(description ? { description } : {}), value };
}

function callOperation(
  path: string,
  call: CallRegistryInfo['calls'][string],
  registry: CallRegistryInfo,
  schemas: SchemaSet,
  w: ExampleWorld,
): Json {
  const name = componentName(path);
  const requestRef = schemas.add(`${name}Request`, call.request, 'input');
  const responseRef = schemas.add(`${name}Response`, call.response, 'output');
  const examples = callExamplesOf(path, w);
  const success: SuccessExample[] = examples?.success ?? [];
  const refusals: RefusalExample[] = examples?.refusals ?? [];
  const requestExamples = keyed([...success, ...refusals], (e) =>
    exampleValue(
      success.includes(e as SuccessExample) ? e.summary : `Refused: ${e.summary}`,
      e.request,
      tokenNote(e.token, w),
    ),
  );
  const responseExamples = {
    ...keyed(success, (e) =>
      exampleValue(e.summary, { code: SUCCESS_CODE, msg: 'success', data: e.response }),
    ),
    ...keyed(refusals, (e) =>
      exampleValue(`Refused (${e.code}): ${e.summary}`, {
        code: e.code,
        msg: e.msg,
        data: e.data,
      }),
    ),
  };
  return {
    post: {
      operationId: operationId(path),
      tags: [registry.area],
      summary: call.summary.split(/(?<=\.)\s/)[0],
      description:
        call.summary +
        (call.spec === false && registry.name === 'CALLS'
          ? '\n\nA Parley extension: not one of the original specification’s paths.'
          : ''),
      security: call.auth ? [{ [`${registry.area}Token`]: [] }] : [],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: requestRef,
            ...(Object.keys(requestExamples).length ? { examples: requestExamples } : {}),
          },
        },
      },
      responses: {
        '200': {
          description: `Every answer to the call, whatever its code: \`${SUCCESS_CODE}\` with \`data\`, or a refusal.`,
          content: {
            'application/json': {
              schema: { oneOf: [successEnvelope(responseRef), ref('ErrorEnvelope')] },
              ...(Object.keys(responseExamples).length ? { examples: responseExamples } : {}),
            },
          },
        },
        '500': { $ref: '#/components/responses/Fault' },
      },
    },
  };
}

function uploadOperation(schemas: SchemaSet, w: ExampleWorld): Json {
  const ex = UPLOAD_EXAMPLES(w);
  const fields = schemas.add('UploadFields', contract.uploadFields, 'input');
  return {
    post: {
      operationId: 'upload',
      tags: ['media'],
      summary: 'Upload one file (image, audio, video or any file)',
      description:
        'A `multipart/form-data` body: the fields, then one file part named `file`. The server checks the bytes, never the name or the declared type, and answers like a call (HTTP 200, the envelope): `data` is a `Media` whose `media_id` goes into `message`, `batch_message` or `quickReplyDoType`. The caps per kind are `PARLEY_MAX_<KIND>_MB` (docs/api.md, Media).',
      security: [{ seatToken: [] }],
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              allOf: [
                fields,
                {
                  type: 'object',
                  properties: {
                    file: {
                      type: 'string',
                      format: 'binary',
                      contentMediaType: 'application/octet-stream',
                    },
                  },
                  required: ['file'],
                },
              ],
            },
            examples: keyed([...ex.success, ...ex.refusals], (e) =>
              exampleValue(
                ex.refusals.includes(e as (typeof ex.refusals)[number])
                  ? `Refused: ${e.summary}`
                  : e.summary,
                { ...e.fields, file: `(the bytes of ${e.file})` },
              ),
            ),
          },
        },
      },
      responses: {
        '200': {
          description: 'The stored media, or a refusal (nothing stored).',
          content: {
            'application/json': {
              schema: { oneOf: [successEnvelope(ref('Media')), ref('ErrorEnvelope')] },
              examples: {
                ...keyed(ex.success, (e) =>
                  exampleValue(e.summary, { code: SUCCESS_CODE, msg: 'success', data: e.response }),
                ),
                ...keyed(ex.refusals, (e) =>
                  exampleValue(`Refused (${e.code}): ${e.summary}`, {
                    code: e.code,
                    msg: e.msg,
                    data: e.data,
                  }),
                ),
              },
            },
          },
        },
        '500': { $ref: '#/components/responses/Fault' },
      },
    },
  };
}

function mediaOperation(thumb: boolean, w: ExampleWorld): Json {
  const ex = MEDIA_EXAMPLES(w);
  const query = new URL(thumb ? ex.thumbUrl : ex.url, 'http://parley.invalid').searchParams;
  const queryParam = (name: string, description: string) => ({
    name,
    in: 'query',
    required: true,
    description,
    schema: { type: 'string' },
    example: query.get(name),
  });
  const coded = (description: string, examples: Record<string, Json> = {}) => ({
    description,
    content: {
      'application/json': {
        schema: ref('ErrorEnvelope'),
        ...(Object.keys(examples).length ? { examples } : {}),
      },
    },
  });
  const refused = keyed(ex.refusals, (e) =>
    exampleValue(e.summary, { code: e.code, msg: e.msg, data: e.data }),
  );
  return {
    get: {
      operationId: thumb ? 'mediaThumb' : 'media',
      tags: ['media'],
      summary: thumb ? "An image's WebP thumbnail" : 'The bytes of a media',
      description:
        "Opened through the `url` / `thumb_url` of a `Media`, signed for the seat that received them (HMAC-SHA256 over seat, media and expiry; the expiry is the end of the next UTC day): `<img>`, `<audio>` and `<video>` send no token. JPEG, PNG, GIF, WebP, audio and video go out inline with the type sniffed at upload; anything else as an attachment of type `application/octet-stream`. Always `X-Content-Type-Options: nosniff`, `Content-Security-Policy: default-src 'none'; sandbox`, an `ETag`.",
      security: [],
      parameters: [
        {
          name: 'media_id',
          in: 'path',
          required: true,
          schema: { type: 'string' },
          example: w.media.id,
        },
        queryParam('seat', 'The seat the URL was signed for.'),
        queryParam('exp', 'Expiry, epoch seconds.'),
        queryParam('sig', 'The signature.'),
        {
          name: 'Range',
          in: 'header',
          required: false,
          description: 'One range (`bytes=0-1023`): 206 with `Content-Range`.',
          schema: { type: 'string' },
        },
        {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'The `ETag` held: 304 when unchanged.',
          schema: { type: 'string' },
        },
      ],
      responses: {
        '200': {
          description: 'The bytes.',
          content: {
            [thumb ? 'image/webp' : '*/*']: {
              schema: { type: 'string', contentMediaType: thumb ? 'image/webp' : '*/*' },
            },
          },
        },
        '206': { description: 'The range asked (audio and video seek).' },
        '304': { description: 'Not modified (`If-None-Match`).' },
        '403': coded(
          'A missing, tampered or expired signature: `400003` with `data.reason` `unsigned`, `bad_signature` or `expired`.',
          refused,
        ),
        '404': coded(
          `Another seat's or an unknown media${thumb ? ', or one without a thumbnail' : ''}: \`400001\`.`,
        ),
        '416': { description: 'A range starting past the end.' },
      },
    },
  };
}

const signatureHeaders = [
  {
    name: PLATFORM_TIMESTAMP_HEADER,
    in: 'header',
    required: true,
    description: 'The time of signing, epoch seconds; more than 5 minutes off is refused.',
    schema: { type: 'string', pattern: '^[0-9]{1,12}$' },
    example: '1795000000',
  },
  {
    name: PLATFORM_SIGNATURE_HEADER,
    in: 'header',
    required: true,
    description:
      'Hex HMAC-SHA256 with the shared secret (`PARLEY_PLATFORM_SECRET`) over `${timestamp}.${rawBody}`, the exact bytes sent.',
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    example: '5c0f4d3e2b1a09f8e7d6c5b4a3928170f6e5d4c3b2a19080f7e6d5c4b3a29180',
  },
];

function platformOperation(
  path: string,
  summary: string,
  request: JsonSchema,
  answer: JsonSchema,
  w: ExampleWorld,
  multipart?: JsonSchema,
): Json {
  const ex = PLATFORM_EXAMPLES[path]!(w);
  const coded = (description: string, codes: ErrorCodeList) => {
    const refusals = ex.refusals.filter((r) => codes.includes(r.code));
    return {
      description,
      content: {
        'application/json': {
          schema: ref('ErrorEnvelope'),
          ...(refusals.length
            ? {
                examples: keyed(refusals, (e) =>
                  exampleValue(e.summary, { code: e.code, msg: e.msg, data: e.data }),
                ),
              }
            : {}),
        },
      },
    };
  };
  return {
    post: {
      operationId: operationId(path),
      tags: ['platform'],
      summary,
      description:
        'Signed by the messaging platform (docs/platform-api.md): the two headers below over the raw body. Nothing is stored unless the code is `000000`. Retry on network errors and `5xx`, never on `4xx`.',
      security: [],
      parameters: signatureHeaders,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: request,
            examples: {
              ...keyed(ex.success, (e) => exampleValue(e.summary, e.request)),
              ...keyed(ex.refusals, (e) =>
                exampleValue(
                  `Refused: ${e.summary}`,
                  e.request,
                  e.wrongSecret ? 'Signed with another secret.' : undefined,
                ),
              ),
            },
          },
          ...(multipart ? { 'multipart/form-data': { schema: multipart } } : {}),
        },
      },
      responses: {
        '200': {
          description: 'Taken (a repeat of what was taken before answers the same).',
          content: {
            'application/json': {
              schema: successEnvelope(answer),
              examples: keyed(ex.success, (e) =>
                exampleValue(e.summary, { code: SUCCESS_CODE, msg: 'success', data: e.response }),
              ),
            },
          },
        },
        '400': coded(
          '`100001` (malformed body, a field breaking the schema, media that is not what `type` says), `400005` (not a phone number), `400007` (an account Parley does not serve).',
          ['100001', '400005', '400007'],
        ),
        '403': coded(
          '`400003`, `data.reason`: `missing`, `bad_signature`, `stale_timestamp` or `not_configured`.',
          ['400003'],
        ),
        '404': coded('`400001`: a message Parley does not have for that account.', ['400001']),
        '429': coded('`500003`: too many requests from this address.', ['500003']),
        '500': { $ref: '#/components/responses/Fault' },
      },
    },
  };
}
type ErrorCodeList = string[];

function platformPaths(schemas: SchemaSet, w: ExampleWorld): Json {
  const message = schemas.add('PlatformMessage', contract.platformMessage, 'input');
  const multipart: JsonSchema = {
    description:
      'The fields of `PlatformMessage` as form fields (`duration_ms` too, no `media`) and the bytes as a part named `file`; the signature covers the whole multipart body.',
    type: 'object',
    properties: {
      id: { type: 'string' },
      account: { type: 'string' },
      customer: { type: 'string' },
      type: { type: 'string', enum: contract.messageType.options },
      content: { type: 'string' },
      duration_ms: { type: 'string', pattern: '^[0-9]+$' },
      sent_at: { type: 'string', pattern: '^[0-9]+$' },
      file: { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' },
    },
    required: ['id', 'account', 'customer', 'type', 'file'],
  };
  return {
    [PLATFORM_PATHS.message]: platformOperation(
      PLATFORM_PATHS.message,
      "A customer's message",
      message,
      schemas.add('PlatformMessageAnswer', contract.platformMessageAnswer, 'output'),
      w,
      multipart,
    ),
    [PLATFORM_PATHS.receipt]: platformOperation(
      PLATFORM_PATHS.receipt,
      "A delivery receipt of an operator's message",
      schemas.add('PlatformReceipt', contract.platformReceipt, 'input'),
      schemas.add('PlatformReceiptAnswer', contract.platformReceiptAnswer, 'output'),
      w,
    ),
    [PLATFORM_PATHS.deletion]: platformOperation(
      PLATFORM_PATHS.deletion,
      'The customer deleted one of their messages',
      schemas.add('PlatformDeletion', contract.platformDeletion, 'input'),
      schemas.add('PlatformDeletionAnswer', contract.platformDeletionAnswer, 'output'),
      w,
    ),
  };
}

function platformWebhook(schemas: SchemaSet): Json {
  return {
    post: {
      operationId: 'platformOutbound',
      tags: ['platform'],
      // Signed by the headers below (HMAC over the body), like the inbound platform API: no
      // scheme of the document's applies.
      security: [],
      summary: "What Parley POSTs to the platform's URL (`PARLEY_PLATFORM_URL`)",
      description:
        'Every operator message and every deletion for all, from the outbox, signed like the inbound API. Delivery is at least once: treat a repeated `idempotency-key` as the same request.',
      parameters: [
        ...signatureHeaders,
        {
          name: 'idempotency-key',
          in: 'header',
          required: true,
          schema: { type: 'string' },
          example: 'parley-4212-message',
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: schemas.add('PlatformOutbound', contract.platformOutbound, 'output'),
          },
        },
      },
      responses: {
        '2XX': {
          description:
            'Delivered to the platform; optionally `{ "external_id": "..." }`, kept as the message’s channel id.',
        },
        default: {
          description:
            'Network error, timeout, 408, 429 (honouring `Retry-After`) or 5xx: retried with back-off; any other 4xx: the message is marked failed.',
        },
      },
    },
  };
}

function realtimePath(schemas: SchemaSet): Json {
  schemas.add('ClientHello', contract.clientHello, 'input');
  schemas.add('ServerFrame', contract.serverFrame, 'output');
  schemas.add('PushEvent', contract.pushEvent, 'output');
  return {
    get: {
      operationId: 'realtime',
      tags: ['seat'],
      summary: 'The push channel (WebSocket)',
      description: `Upgrade to a WebSocket. The client's first frame is a \`ClientHello\` (its token and the last event id it handled); the server answers \`ready\` (or \`reset\`: refetch, then go on), then sends \`event\` frames (each checked with \`PushEvent\`: ${Object.keys(EVENT_PAYLOADS).join(', ')}) and a \`ping\` at least every \`heartbeat_ms\`. A token that ends closes the socket after an \`error\` frame (400002). Frames: \`ServerFrame\`.`,
      security: [],
      responses: { '101': { description: 'Switching to the WebSocket protocol.' } },
    },
  };
}

function servicePaths(): Json {
  return {
    '/healthz': {
      get: {
        operationId: 'health',
        tags: ['service'],
        summary: 'Liveness: the process answers',
        security: [],
        responses: {
          '200': {
            description: 'Up.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { status: { type: 'string', const: 'ok' } },
                  required: ['status'],
                },
                example: { status: 'ok' },
              },
            },
          },
        },
      },
    },
    [OPENAPI_PATH]: {
      get: {
        operationId: 'openapi',
        tags: ['service'],
        summary: 'This document',
        description: `Rendered for people at \`${API_VIEWER_PATH}\`.`,
        security: [],
        responses: {
          '200': {
            description: 'The OpenAPI 3.1 document.',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
  };
}

const TAGS: Record<string, string> = {
  seat: "The seat's console: its calls and its push channel.",
  media: 'Uploads and the signed media URLs.',
  platform:
    "The messaging platform's signed API (inbound) and what Parley sends it (webhooks: platformOutbound).",
  service: 'Health and this document.',
};

export interface DocumentOptions {
  /** The world the examples are written over (default: the published sample). */
  world?: ExampleWorld;
  /** The call registries to document (default: every one the protocol exports). */
  registries?: CallRegistryInfo[];
}

/** The OpenAPI 3.1 document of Parley's HTTP API, from the protocol's schemas and examples. */
export function buildOpenApiDocument(options: DocumentOptions = {}): Json {
  const w = options.world ?? SAMPLE_WORLD;
  const schemas = new SchemaSet();
  for (const [name, schema, io] of [
    ['UserInfo', contract.userInfo, 'output'],
    ['PhoneAccount', contract.phoneAccount, 'output'],
    ['Group', contract.group, 'output'],
    ['SessionItem', contract.sessionItem, 'output'],
    ['LastMessage', contract.lastMessage, 'output'],
    ['ChatMessage', contract.chatMessage, 'output'],
    ['Media', contract.media, 'output'],
    ['QuickReply', contract.quickReply, 'output'],
    ['BatchStatus', contract.batchStatus, 'output'],
    ['AddressBookEntry', contract.addressBookEntry, 'output'],
    ['EngineOffer', contract.engineOffer, 'output'],
    ['ValidationErrorData', contract.validationErrorData, 'output'],
    ['TranslationErrorData', contract.translationErrorData, 'output'],
    ['RefusalReasonData', contract.refusalReasonData, 'output'],
  ] as const) {
    schemas.add(name, schema, io);
  }

  const registries = options.registries ?? protocolCallRegistries();
  const paths: Json = {};
  const tags = new Map(Object.entries(TAGS));
  const securitySchemes: Json = {};
  for (const registry of registries) {
    if (!tags.has(registry.area)) tags.set(registry.area, `The ${registry.area} calls.`);
    securitySchemes[`${registry.area}Token`] = {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: `The token of \`/v1/${registry.area}/${registry.area === 'seat' ? 'chat/' : ''}login\`: the raw token, or \`Bearer <token>\`. Without a valid one a call answers \`400002\`.`,
    };
    for (const [path, call] of Object.entries(registry.calls)) {
      paths[path] = callOperation(path, call, registry, schemas, w);
    }
  }
  paths[UPLOAD_PATH] = uploadOperation(schemas, w);
  paths[`${MEDIA_PATH_PREFIX}{media_id}`] = mediaOperation(false, w);
  paths[`${MEDIA_PATH_PREFIX}{media_id}/thumb`] = mediaOperation(true, w);
  paths[REALTIME_PATH] = realtimePath(schemas);
  Object.assign(paths, platformPaths(schemas, w), servicePaths());
  const webhooks = { platformOutbound: platformWebhook(schemas) };

  return {
    openapi: '3.1.0',
    info: {
      title: 'Parley API',
      version: '1.0.0',
      description: DESCRIPTION,
    },
    servers: [{ url: '/', description: 'The server that serves this document' }],
    tags: [...tags].map(([name, description]) => ({ name, description })),
    paths,
    webhooks,
    components: {
      schemas: {
        ...schemas.toComponents(),
        ErrorCode: {
          type: 'string',
          enum: errorCodes,
          description: errorCodes.map((c) => `${c}: ${ERROR_MESSAGES[c]}`).join('; '),
        },
        ErrorEnvelope: errorEnvelope(),
      },
      responses: {
        Fault: {
          description:
            'An unexpected fault (a bug): `500001`. A database out of reach answers `500005` with `data.reason` "database unavailable" instead (try again).',
          content: { 'application/json': { schema: ref('ErrorEnvelope') } },
        },
      },
      securitySchemes,
    },
  };
}
