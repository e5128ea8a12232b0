import { ERROR_MESSAGES, type ErrorCode } from '../codes.js';
import { PLATFORM_PATHS } from '../platform.js';
import { exampleImage, type ExampleWorld } from './example-world.js';

// Examples of what is not a JSON call: the upload, the media GETs and the platform's signed
// API. The contract test replays them like the calls' (call-examples.ts).

/** The upload: form fields and one file of the test corpus (e2e/fixtures/media). */
export interface UploadExample {
  summary: string;
  fields: Record<string, string>;
  file: string;
}

export const UPLOAD_EXAMPLES = (w: ExampleWorld) => ({
  success: [
    {
      summary: 'Upload a photo',
      fields: { kind: 'image' },
      file: 'photo.jpg',
      response: exampleImage(w),
    },
  ],
  refusals: [
    {
      summary: 'A PDF sent as an image',
      fields: { kind: 'image' },
      file: 'doc.pdf',
      code: '100001' as ErrorCode,
      msg: `${ERROR_MESSAGES['100001']}: file`,
      data: { fields: [{ path: 'file', message: 'not an image (JPEG, PNG, GIF or WebP)' }] },
    },
  ],
});

/** A media GET refused: the signed URL with its `sig` replaced. */
export const MEDIA_EXAMPLES = (w: ExampleWorld) => ({
  url: w.media.url,
  thumbUrl: w.media.thumbUrl,
  refusals: [
    {
      summary: 'A tampered signature',
      sig: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      status: 403,
      code: '400003' as ErrorCode,
      msg: ERROR_MESSAGES['400003'],
      data: { reason: 'bad_signature' },
    },
  ],
});

export interface PlatformRefusal {
  summary: string;
  request: unknown;
  /** Sent with a signature made with another secret. */
  wrongSecret?: boolean;
  status: number;
  code: ErrorCode;
  msg: string;
  data: unknown;
}

export interface PlatformExamples {
  success: { summary: string; request: unknown; response: unknown }[];
  refusals: PlatformRefusal[];
}

/** The platform's signed requests (JSON), by path. */
export const PLATFORM_EXAMPLES: Record<string, (w: ExampleWorld) => PlatformExamples> = {
  [PLATFORM_PATHS.message]: (w) => ({
    success: [
      {
        summary: "A customer's text",
        request: {
          id: 'wamid-2001',
          account: w.phone,
          customer: w.customer,
          type: 'text',
          content: '¿Me lo pueden enviar hoy?',
        },
        response: { msg_id: w.messages.outbound + 4, blocked: false, duplicate: false },
      },
    ],
    refusals: [
      {
        summary: 'Signed with another secret',
        request: {
          id: 'wamid-2002',
          account: w.phone,
          customer: w.customer,
          type: 'text',
          content: 'Hi',
        },
        wrongSecret: true,
        status: 403,
        code: '400003',
        msg: 'Platform request refused: bad_signature',
        data: { reason: 'bad_signature' },
      },
      {
        summary: 'An account Parley does not serve',
        request: {
          id: 'wamid-2003',
          account: '+15550199999',
          customer: w.customer,
          type: 'text',
          content: 'Hi',
        },
        status: 400,
        code: '400007',
        msg: ERROR_MESSAGES['400007'],
        data: null,
      },
    ],
  }),
  [PLATFORM_PATHS.receipt]: (w) => ({
    success: [
      {
        summary: "The operator's message was delivered",
        request: {
          account: w.phone,
          msg_id: w.messages.outbound,
          status: 'delivered',
          external_id: 'wamid-9001',
        },
        response: { msg_id: w.messages.outbound, status: 'delivered' },
      },
    ],
    refusals: [
      {
        summary: 'A message Parley does not have',
        request: { account: w.phone, msg_id: 999_999, status: 'read' },
        status: 404,
        code: '400001',
        msg: ERROR_MESSAGES['400001'],
        data: null,
      },
    ],
  }),
  [PLATFORM_PATHS.deletion]: (w) => ({
    success: [
      {
        summary: 'The customer deleted a message',
        request: { account: w.phone, id: w.platformMessageId },
        response: { msg_id: w.messages.inbound + 1 },
      },
    ],
    refusals: [
      {
        summary: 'No message id',
        request: { account: w.phone },
        status: 400,
        code: '100001',
        msg: `${ERROR_MESSAGES['100001']}: id`,
        data: {
          fields: [{ path: 'id', message: 'Invalid input: expected string, received undefined' }],
        },
      },
    ],
  }),
};
