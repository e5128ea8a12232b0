import { describe, expect, it } from 'vitest';
import type { Media } from '@parley/protocol';
import { ApiError } from '../../../lib/api-core';
import { localMessage as local } from '../../../test/builders';
import {
  RETRY_MAX_MS,
  classifySendError,
  fromStored,
  pickReady,
  retryDelayMs,
  toStored,
} from './outbox-logic';

const media: Media = {
  media_id: 'med_1',
  url: '/v1/seat/media/med_1?sig=x',
  thumb_url: null,
  mime: 'image/png',
  size: 10,
  file_name: 'a.png',
  duration_ms: null,
  width: 1,
  height: 1,
};

describe('classifySendError', () => {
  it('waits on network errors, time-outs and 500005', () => {
    expect(classifySendError(new ApiError('500005', 'Server busy'))).toBe('offline');
  });
  it('stops on an expired login', () => {
    expect(classifySendError(new ApiError('400002', 'Token expired'))).toBe('expired');
  });
  it('fails on a refusal of the server', () => {
    expect(classifySendError(new ApiError('400003', 'Failed to get permissions'))).toBe('refused');
    expect(classifySendError(new ApiError('400001', 'Data does not exist'))).toBe('refused');
    expect(classifySendError(new ApiError('500001', 'Service error'))).toBe('refused');
    expect(classifySendError(new TypeError('bug'))).toBe('refused');
  });
  it('ignores an aborted request', () => {
    expect(classifySendError(new DOMException('stop', 'AbortError'))).toBe('cancelled');
  });
});

describe('retryDelayMs', () => {
  it('doubles from one second up to the cap', () => {
    const noJitter = () => 0;
    expect([0, 1, 2, 3, 4, 10].map((a) => retryDelayMs(a, noJitter))).toEqual([
      1000,
      2000,
      4000,
      8000,
      RETRY_MAX_MS,
      RETRY_MAX_MS,
    ]);
  });
  it('takes at most a fifth off at random', () => {
    expect(retryDelayMs(0, () => 0.999)).toBeGreaterThanOrEqual(800);
    expect(retryDelayMs(20, () => 1)).toBe(RETRY_MAX_MS * 0.8);
  });
});

describe('pickReady', () => {
  it('sends the first message of each chat, one request per chat at a time', () => {
    const a1 = local(1);
    const a2 = local(1);
    const b1 = local(2, { status: 'waiting' });
    expect(pickReady([a1, a2, b1], new Set())).toEqual([a1, b1]);
    // Chat 1 has a request out: its next message waits for the answer (order kept).
    expect(pickReady([a1, a2, b1], new Set([1]))).toEqual([b1]);
    // After a1 is sent (removed), a2 is next.
    expect(pickReady([a2, b1], new Set([2]))).toEqual([a2]);
  });

  it('never has the same message out twice, however often it is asked', () => {
    const a1 = local(1);
    const inFlight = new Set<number>();
    const first = pickReady([a1], inFlight);
    first.forEach((m) => inFlight.add(m.session_id));
    expect(first).toEqual([a1]);
    expect(pickReady([a1], inFlight)).toEqual([]);
    expect(pickReady([a1], inFlight)).toEqual([]);
  });

  it('does not let a refused message or an upload in progress hold back the next', () => {
    const refused = local(1, { status: 'failed', error: { code: '400003', msg: '' } });
    const uploading = local(1, {
      type: 'image',
      upload: {
        file: new Blob(['x']),
        kind: 'image',
        fileName: 'a.png',
        progress: 0.5,
        state: 'uploading',
      },
    });
    const next = local(1);
    expect(pickReady([refused, uploading, next], new Set())).toEqual([next]);
  });

  it('sends an uploaded media message with the others, in order', () => {
    const uploaded = local(1, { type: 'image', media });
    const next = local(1);
    expect(pickReady([uploaded, next], new Set())).toEqual([uploaded]);
  });
});

describe('stored outbox', () => {
  it('round-trips unsent and refused messages; a reload tries the unsent ones again', () => {
    const waiting = local(1, { status: 'waiting', original_content: 'Привет' });
    const refused = local(1, { status: 'failed', error: { code: '400003', msg: 'no' } });
    const image = local(2, { type: 'image', media, content: 'caption' });
    const back = fromStored(JSON.stringify(toStored([waiting, refused, image])));
    expect(back).toEqual([
      { ...waiting, status: 'pending' },
      refused,
      { ...image, status: 'pending' },
    ]);
  });

  it('keeps a reply with its quote; a quote that does not match its id is dropped', () => {
    const quote = {
      msg_id: 7,
      direction: 'in' as const,
      type: 'text' as const,
      preview: 'hi',
      deleted: false,
    };
    const reply = local(1, { reply_to: 7, quote });
    expect(fromStored(JSON.stringify(toStored([reply])))).toEqual([
      { ...reply, status: 'pending' },
    ]);
    const stored = toStored([reply]);
    stored.items[0]!.quote = { ...quote, msg_id: 8 };
    expect(fromStored(JSON.stringify(stored))[0]).toMatchObject({ reply_to: null, quote: null });
    // An outbox kept before replies existed reads as no reply.
    delete stored.items[0]!.reply_to;
    delete stored.items[0]!.quote;
    expect(fromStored(JSON.stringify(stored))[0]).toMatchObject({ reply_to: null, quote: null });
  });

  it('does not keep uploads in progress (their file cannot be stored)', () => {
    const uploading = local(1, {
      type: 'audio',
      upload: {
        file: new Blob(['x']),
        kind: 'audio',
        fileName: 'a.ogg',
        progress: 0,
        state: 'uploading',
      },
    });
    expect(toStored([uploading]).items).toEqual([]);
  });

  it('drops unreadable data instead of breaking the console', () => {
    expect(fromStored(null)).toEqual([]);
    expect(fromStored('{not json')).toEqual([]);
    expect(fromStored(JSON.stringify({ v: 2, items: [] }))).toEqual([]);
    const good = toStored([local(1)]).items[0];
    const bad = [
      { ...good, client_msg_id: 'short' },
      { ...good, session_id: 'x' },
      { ...good, type: 'sticker' },
      { ...good, type: 'image', media: null },
      null,
    ];
    expect(fromStored(JSON.stringify({ v: 1, items: [...bad, good] }))).toHaveLength(1);
  });
});
