import { describe, expect, it } from 'vitest';
import { MEDIA_MAX_BYTES_DEFAULT } from '@parley/protocol';
import {
  formatDuration,
  formatSize,
  isTooLarge,
  kindOf,
  pickVoiceMime,
  voiceFileName,
} from './media-rules';

describe('kindOf', () => {
  it('follows the file type', () => {
    expect(kindOf({ type: 'image/png' })).toBe('image');
    expect(kindOf({ type: 'IMAGE/JPEG' })).toBe('image');
    expect(kindOf({ type: 'audio/ogg' })).toBe('audio');
    expect(kindOf({ type: 'video/mp4' })).toBe('video');
    expect(kindOf({ type: 'application/pdf' })).toBe('file');
    expect(kindOf({ type: '' })).toBe('file');
  });
});

describe('isTooLarge', () => {
  it('refuses sizes above the protocol default of the kind', () => {
    expect(isTooLarge({ size: MEDIA_MAX_BYTES_DEFAULT.image }, 'image')).toBe(false);
    expect(isTooLarge({ size: MEDIA_MAX_BYTES_DEFAULT.image + 1 }, 'image')).toBe(true);
    expect(isTooLarge({ size: MEDIA_MAX_BYTES_DEFAULT.image + 1 }, 'video')).toBe(false);
  });
});

describe('formatSize', () => {
  it('reads like a person would say it', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(900)).toBe('900 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(12 * 1024 * 1024 + 5)).toBe('12 MB');
    expect(formatSize(1536, 'ru')).toBe('1,5 KB');
  });
});

describe('formatDuration', () => {
  it('shows whole seconds elapsed as m:ss, and h:mm:ss from an hour', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(999)).toBe('0:00');
    expect(formatDuration(4_600)).toBe('0:04');
    expect(formatDuration(65_000)).toBe('1:05');
    expect(formatDuration(3_725_000)).toBe('1:02:05');
  });
});

describe('voice notes', () => {
  it('records Opus in WebM when it can, else in Ogg', () => {
    expect(pickVoiceMime(() => true)).toBe('audio/webm;codecs=opus');
    expect(pickVoiceMime((m) => m.startsWith('audio/ogg'))).toBe('audio/ogg;codecs=opus');
    expect(pickVoiceMime(() => false)).toBeUndefined();
  });
  it('names the file by time and container', () => {
    const at = new Date('2026-11-23T08:09:10Z');
    expect(voiceFileName('audio/webm;codecs=opus', at)).toBe('voice-20261123-080910.webm');
    expect(voiceFileName('audio/ogg', at)).toBe('voice-20261123-080910.ogg');
  });
});
