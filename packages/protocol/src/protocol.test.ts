import { describe, expect, it } from 'vitest';
import {
  CALL_PATHS,
  SPEC_CALL_PATHS,
  CALLS,
  ERROR_CODES,
  ERROR_MESSAGES,
  GROUP_NAME_MAX,
  TRANSLATION_LANGUAGES,
  doGroupRequest,
  isSuccessCode,
  messageRequest,
  resolveUiLanguage,
} from './index.js';

describe('protocol', () => {
  it('lists the 22 paths of the spec, and the extensions apart', () => {
    expect(SPEC_CALL_PATHS).toHaveLength(22);
    expect(CALL_PATHS.filter((p) => !CALLS[p].spec).every((p) => CALLS[p].auth)).toBe(true);
    expect(CALLS['/v1/seat/chat/login'].auth).toBe(false);
    expect(CALLS['/v1/seat/chat/message'].auth).toBe(true);
  });

  it('has a message for every code', () => {
    for (const code of Object.values(ERROR_CODES)) expect(ERROR_MESSAGES[code]).toBeTruthy();
    expect(ERROR_MESSAGES['500006']).toBe('Chat with target number exists');
  });

  it('treats 000000 and numeric 200 as success', () => {
    expect(isSuccessCode('000000')).toBe(true);
    expect(isSuccessCode(200)).toBe(true);
    expect(isSuccessCode('100001')).toBe(false);
  });

  it('resolves the UI language: saved, else browser, else en', () => {
    expect(resolveUiLanguage('ru', ['pt-BR'])).toBe('ru');
    expect(resolveUiLanguage(null, ['pt-BR', 'en'])).toBe('pt');
    expect(resolveUiLanguage(null, ['zh-CN'])).toBe('zh-CN');
    expect(resolveUiLanguage(null, ['de-DE'])).toBe('en');
  });

  it('offers about 45 translation languages including the variants', () => {
    const codes = TRANSLATION_LANGUAGES.map((l) => l.code);
    expect(codes.length).toBeGreaterThanOrEqual(44);
    for (const c of ['EN-GB', 'PT-BR', 'PT-PT', 'ZH-HANS', 'ZH-HANT', 'NB'])
      expect(codes).toContain(c);
  });

  it('caps group names at 50 characters and requires one', () => {
    expect(
      doGroupRequest.safeParse({ type: 'add', group_name: 'x'.repeat(GROUP_NAME_MAX) }).success,
    ).toBe(true);
    expect(
      doGroupRequest.safeParse({ type: 'add', group_name: 'x'.repeat(GROUP_NAME_MAX + 1) }).success,
    ).toBe(false);
    expect(doGroupRequest.safeParse({ type: 'add', group_name: '   ' }).success).toBe(false);
  });

  it('requires text for a text message and media for a media message', () => {
    const base = {
      send_phone: '+15550001',
      receiver_phone: '+4479000001',
      client_msg_id: 'abcdefgh12',
    };
    expect(messageRequest.safeParse({ ...base, content: 'hi' }).success).toBe(true);
    expect(messageRequest.safeParse({ ...base, content: '  ' }).success).toBe(false);
    expect(messageRequest.safeParse({ ...base, type: 'image', content: '' }).success).toBe(false);
  });
});

describe('admin protocol', () => {
  it('keeps every admin call under /v1/admin/, all behind a token but login', async () => {
    const { ADMIN_CALLS, ADMIN_CALL_PATHS } = await import('./index.js');
    expect(ADMIN_CALL_PATHS.every((p) => p.startsWith('/v1/admin/'))).toBe(true);
    expect(ADMIN_CALL_PATHS.filter((p) => !ADMIN_CALLS[p].auth)).toEqual(['/v1/admin/login']);
    expect(ERROR_MESSAGES['409001']).toBe('Only a failed delivery can be retried');
  });

  it('asks a bot token only for the telegram channel', async () => {
    const { adminAccountsSetChannelRequest: r } = await import('./index.js');
    expect(r.safeParse({ account_id: 1, channel: 'sandbox' }).success).toBe(true);
    expect(r.safeParse({ account_id: 1, channel: 'telegram' }).success).toBe(false);
    expect(r.safeParse({ account_id: 1, channel: 'telegram', bot_token: '1:a' }).success).toBe(
      true,
    );
    expect(r.safeParse({ account_id: 1, channel: 'email' }).success).toBe(false);
  });
});
