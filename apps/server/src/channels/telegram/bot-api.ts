import { maskSecret } from '../../lib/mask-secret.js';
import { Readable } from 'node:stream';

/**
 * A small client of the Telegram Bot API (https://core.telegram.org/bots/api): every method is
 * `POST <base>/bot<token>/<method>` answering `{ ok: true, result }` or
 * `{ ok: false, error_code, description, parameters? }`; files come from
 * `<base>/file/bot<token>/<file_path>`.
 */

export interface TgUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

export interface TgChat {
  id: number;
  type: 'private' | 'group' | 'supergroup' | 'channel';
}

export interface TgFileRef {
  file_id: string;
  file_unique_id: string;
  file_size?: number;
  file_name?: string;
  mime_type?: string;
  duration?: number;
}

export interface TgPhotoSize extends TgFileRef {
  width: number;
  height: number;
}

export interface TgMessage {
  message_id: number;
  date: number;
  chat: TgChat;
  from?: TgUser;
  text?: string;
  caption?: string;
  photo?: TgPhotoSize[];
  voice?: TgFileRef;
  audio?: TgFileRef;
  video?: TgFileRef;
  video_note?: TgFileRef;
  animation?: TgFileRef;
  document?: TgFileRef;
  sticker?: TgFileRef;
  /** The message this one replies to (Bot API: for replies in the same chat). */
  reply_to_message?: Pick<TgMessage, 'message_id' | 'date' | 'chat'>;
}

export interface TgUpdate {
  update_id: number;
  message?: TgMessage;
}

/** Telegram refused the call (`ok: false`). */
export class BotApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: number,
    readonly description: string,
    readonly retryAfterSeconds: number | null,
  ) {
    super(`Telegram ${errorCode}: ${description}`);
  }
}

export interface UploadFile {
  field: string;
  bytes: Buffer;
  fileName: string;
  mime: string;
}

export class BotApi {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  /** Calls a method with JSON parameters, or multipart when a file goes along. */
  async call<T>(
    method: string,
    params: Record<string, unknown> = {},
    opts: { file?: UploadFile; signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<T> {
    let body: string | FormData;
    const headers: Record<string, string> = {};
    if (opts.file) {
      const form = new FormData();
      for (const [key, value] of Object.entries(params)) {
        if (value !== undefined) form.append(key, String(value));
      }
      form.append(
        opts.file.field,
        new Blob([opts.file.bytes], { type: opts.file.mime }),
        opts.file.fileName,
      );
      body = form;
    } else {
      body = JSON.stringify(params);
      headers['content-type'] = 'application/json';
    }
    const signals = [AbortSignal.timeout(opts.timeoutMs ?? 60_000)];
    if (opts.signal) signals.push(opts.signal);
    const res = await fetch(`${this.baseUrl}/bot${this.token}/${method}`, {
      method: 'POST',
      headers,
      body,
      // The Bot API answers its methods itself; a redirect is not followed anywhere.
      redirect: 'error',
      signal: AbortSignal.any(signals),
    });
    const text = await res.text();
    let json: {
      ok?: boolean;
      result?: T;
      error_code?: number;
      description?: string;
      parameters?: { retry_after?: number };
    };
    try {
      json = JSON.parse(text) as typeof json;
    } catch {
      throw new BotApiError(
        res.status,
        res.status,
        `not a Bot API answer (HTTP ${res.status})`,
        null,
      );
    }
    if (json.ok === true) return json.result as T;
    throw new BotApiError(
      res.status,
      json.error_code ?? res.status,
      json.description ?? `HTTP ${res.status}`,
      json.parameters?.retry_after ?? null,
    );
  }

  /**
   * The bytes of a file that getFile described, from the configured Bot API only: the
   * `file_path` Telegram answered is taken as relative segments, each encoded (no `..`, no
   * query, no other host), and a redirect is not followed (the token is in the URL's path).
   */
  async download(filePath: string, signal?: AbortSignal): Promise<Readable> {
    const segments = filePath.split('/');
    if (
      filePath.length > 512 ||
      segments.some((s) => s === '' || s === '.' || s === '..' || !FILE_PATH_SEGMENT.test(s))
    ) {
      throw new BotApiError(400, 400, `file path refused: ${filePath.slice(0, 80)}`, null);
    }
    const path = segments.map((s) => encodeURIComponent(s)).join('/');
    const res = await fetch(`${this.baseUrl}/file/bot${this.token}/${path}`, {
      signal: signal ?? AbortSignal.timeout(120_000),
      redirect: 'manual',
    });
    if (!res.ok || !res.body) {
      throw new BotApiError(
        res.status,
        res.status,
        `file download failed (HTTP ${res.status})`,
        null,
      );
    }
    return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream);
  }
}

/** `1234567:AAE…` shown as `1234567:****…last4`: enough to tell bots apart, useless to steal. */
export const maskToken = maskSecret;

/** A segment of a Bot API `file_path` (`photos/file_12.jpg`): printable, no slash, no control. */
const FILE_PATH_SEGMENT = /^[^\p{Cc}/\\?#%]{1,255}$/u;

/** The shape of a bot token: `<bot id>:<secret>`. */
export const BOT_TOKEN = /^[0-9]{1,20}:[A-Za-z0-9_-]{20,100}$/;
