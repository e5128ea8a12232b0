/**
 * A local HTTP server that follows the Telegram Bot API's published methods
 * (https://core.telegram.org/bots/api), for the Telegram channel's tests: `POST
 * /bot<token>/<method>` with JSON, form or multipart parameters, answering `{ ok: true,
 * result }` or `{ ok: false, error_code, description, parameters? }`, and files at
 * `GET /file/bot<token>/<file_path>`. Like Telegram, getUpdates long-polls (`timeout`),
 * forgets the updates before `offset`, and answers 409 to a second getUpdates while one is
 * waiting. Tests push customers' updates, give users profile photos, read what the bots sent,
 * and make the next calls fail.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback.js';

export interface FakeUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

export interface SentMessage {
  method: string;
  chat_id: string;
  message_id: number;
  text?: string;
  caption?: string;
  /** The uploaded file's bytes, name and declared type (multipart). */
  file?: { field: string; bytes: Buffer; name: string; type: string };
  params: Record<string, string>;
}

interface StoredFile {
  file_id: string;
  file_unique_id: string;
  file_path: string;
  bytes: Buffer;
}

interface Bot {
  id: number;
  username: string;
  token: string;
  updates: { update_id: number; message: Record<string, unknown> }[];
  nextUpdateId: number;
  nextMessageId: number;
  sent: SentMessage[];
  deleted: { chat_id: string; message_id: number }[];
  waiting: (() => void) | null;
  /** getUpdates calls in flight (Telegram allows one). */
  polling: number;
  /** getUpdates calls answered 409 because another one was waiting. */
  conflicts: number;
  getUpdatesCalls: number;
  blockedBy: Set<string>;
  /** setWebhook's URL ('' when none). */
  webhook: string;
  /** Every message of each chat (by chat id): the customers' and the bot's, by message_id. */
  chats: Map<string, Map<number, Record<string, unknown>>>;
}

type Failure = { error_code: number; description: string; retry_after?: number } | 'drop';

/** The app's Telegram settings for a test against this server: short polls, quick scans. */
export function telegramConfigFor(apiUrl: string) {
  return { apiUrl, polling: true, pollTimeoutSeconds: 1, scanIntervalMs: 50, leaseMs: 5_000 };
}

export class TelegramBotApiServer {
  private server: Server | null = null;
  private readonly bots = new Map<string, Bot>();
  private readonly files = new Map<string, StoredFile>();
  private readonly photos = new Map<number, string[]>();
  private readonly failures = new Map<string, Failure[]>();
  private nextFileId = 1;
  private nextBotId = 7_000_000_001;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.url = await listenOnLoopback(this.server);
    return this;
  }

  async stop() {
    for (const bot of this.bots.values()) bot.waiting?.();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** A bot BotFather would create: answers its token. */
  createBot(username: string): string {
    const id = this.nextBotId++;
    const token = `${id}:AAH${Buffer.from(username).toString('hex').padEnd(32, 'x').slice(0, 32)}`;
    this.bots.set(token, {
      id,
      username,
      token,
      updates: [],
      nextUpdateId: 100_000,
      nextMessageId: 1,
      sent: [],
      deleted: [],
      waiting: null,
      polling: 0,
      conflicts: 0,
      getUpdatesCalls: 0,
      blockedBy: new Set(),
      webhook: '',
      chats: new Map(),
    });
    return token;
  }

  bot(token: string): Bot {
    const bot = this.bots.get(token);
    if (!bot) throw new Error(`no bot ${token}`);
    return bot;
  }

  /** Every GET's raw path (file downloads), as it reached this server. */
  readonly gets: string[] = [];

  /** A file Telegram holds (a customer's upload): answers its file_id. */
  addFile(bytes: Buffer, ext: string, filePath?: string): string {
    const n = this.nextFileId++;
    const file_id = `FILE${n}`;
    this.files.set(file_id, {
      file_id,
      file_unique_id: `U${n}`,
      // A hostile getFile answer may name any path (the SSRF tests).
      file_path: filePath ?? `documents/file_${n}.${ext}`,
      bytes,
    });
    return file_id;
  }

  setProfilePhoto(userId: number, bytes: Buffer) {
    this.photos.set(userId, [this.addFile(bytes, 'jpg')]);
  }

  /** A customer writes to the bot: answers the update (push it again to replay it). */
  pushMessage(
    token: string,
    user: FakeUser,
    content: Record<string, unknown>,
  ): { update_id: number; message: Record<string, unknown> } {
    const bot = this.bot(token);
    const update = {
      update_id: bot.nextUpdateId++,
      message: {
        message_id: bot.nextMessageId++,
        date: Math.floor(Date.now() / 1000),
        chat: { id: user.id, type: 'private', first_name: user.first_name },
        from: { is_bot: false, ...user },
        ...content,
      },
    };
    this.remember(bot, String(user.id), update.message);
    this.pushUpdate(token, update);
    return update;
  }

  /**
   * The customer replies to a message of their chat (the Telegram app's "Reply"): the update's
   * message carries the replied-to message as `reply_to_message`, as the Bot API sends it.
   */
  pushReply(token: string, user: FakeUser, replyTo: number, content: Record<string, unknown>) {
    const quoted = this.bot(token).chats.get(String(user.id))?.get(replyTo);
    if (!quoted) throw new Error(`no message ${replyTo} in the chat of ${user.id}`);
    return this.pushMessage(token, user, { ...content, reply_to_message: quoted });
  }

  private remember(bot: Bot, chatId: string, message: Record<string, unknown>) {
    const chat = bot.chats.get(chatId) ?? new Map<number, Record<string, unknown>>();
    chat.set(message.message_id as number, message);
    bot.chats.set(chatId, chat);
  }

  /** Hands an update over (again): as Telegram does when an offset was never confirmed. */
  pushUpdate(token: string, update: { update_id: number; message: Record<string, unknown> }) {
    const bot = this.bot(token);
    bot.updates.push(update);
    bot.waiting?.();
  }

  /** The user blocked the bot: sends to them answer 403. */
  block(token: string, userId: number) {
    this.bot(token).blockedBy.add(String(userId));
  }

  /** The next calls of `method` answer these failures, in order ('drop': the socket closes). */
  failNext(method: string, ...failures: Failure[]) {
    this.failures.set(method, [...(this.failures.get(method) ?? []), ...failures]);
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'GET') this.gets.push(req.url ?? '');
    const fileMatch = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (req.method === 'GET' && fileMatch) {
      const file = [...this.files.values()].find((f) => f.file_path === fileMatch[2]);
      if (!this.bots.has(fileMatch[1]!) || !file) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ ok: false, error_code: 404, description: 'Not Found' }));
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(file.bytes);
    }
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!match) return this.fail(res, 404, 'Not Found');
    const bot = this.bots.get(match[1]!);
    if (!bot) return this.fail(res, 401, 'Unauthorized');
    const method = match[2]!;
    const { params, file } = await readParams(req, url);
    const failure = this.failures.get(method)?.shift();
    if (failure === 'drop') return req.socket.destroy();
    if (failure) {
      return this.fail(
        res,
        failure.error_code,
        failure.description,
        failure.retry_after !== undefined ? { retry_after: failure.retry_after } : undefined,
      );
    }
    switch (method) {
      case 'getMe':
        return this.ok(res, {
          id: bot.id,
          is_bot: true,
          first_name: bot.username,
          username: bot.username,
          can_join_groups: true,
          can_read_all_group_messages: false,
          supports_inline_queries: false,
        });
      case 'getWebhookInfo':
        return this.ok(res, {
          url: bot.webhook,
          has_custom_certificate: false,
          pending_update_count: 0,
        });
      case 'getUpdates':
        if (bot.webhook) {
          return this.fail(
            res,
            409,
            "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
          );
        }
        return this.getUpdates(bot, params, res);
      case 'getFile': {
        const stored = this.files.get(params.file_id ?? '');
        if (!stored) return this.fail(res, 400, 'Bad Request: invalid file_id');
        return this.ok(res, {
          file_id: stored.file_id,
          file_unique_id: stored.file_unique_id,
          file_size: stored.bytes.length,
          file_path: stored.file_path,
        });
      }
      case 'getUserProfilePhotos': {
        const ids = this.photos.get(Number(params.user_id)) ?? [];
        return this.ok(res, {
          total_count: ids.length,
          photos: ids.map((file_id) => [
            { file_id, file_unique_id: `${file_id}u`, width: 640, height: 640 },
          ]),
        });
      }
      case 'deleteMessage': {
        const id = Number(params.message_id);
        const exists = bot.sent.some((m) => m.chat_id === params.chat_id && m.message_id === id);
        const gone = bot.deleted.some((d) => d.chat_id === params.chat_id && d.message_id === id);
        if (!exists || gone) return this.fail(res, 400, 'Bad Request: message to delete not found');
        bot.deleted.push({ chat_id: params.chat_id!, message_id: id });
        return this.ok(res, true);
      }
      case 'sendMessage':
      case 'sendPhoto':
      case 'sendVoice':
      case 'sendAudio':
      case 'sendVideo':
      case 'sendDocument': {
        const chatId = params.chat_id;
        if (!chatId) return this.fail(res, 400, 'Bad Request: chat_id is empty');
        if (bot.blockedBy.has(chatId)) {
          return this.fail(res, 403, 'Forbidden: bot was blocked by the user');
        }
        if (method === 'sendMessage' && !params.text) {
          return this.fail(res, 400, 'Bad Request: message text is empty');
        }
        if (method !== 'sendMessage' && !file) {
          return this.fail(res, 400, 'Bad Request: there is no file in the request');
        }
        // Bot API: `reply_to_message_id` must name a message of this chat (unless
        // allow_sending_without_reply); the sent message then carries it as reply_to_message.
        const replyTo = params.reply_to_message_id
          ? bot.chats.get(chatId)?.get(Number(params.reply_to_message_id))
          : undefined;
        if (
          params.reply_to_message_id &&
          !replyTo &&
          params.allow_sending_without_reply !== 'true'
        ) {
          return this.fail(res, 400, 'Bad Request: message to be replied not found');
        }
        const sent: SentMessage = {
          method,
          chat_id: chatId,
          message_id: bot.nextMessageId++,
          ...(params.text !== undefined ? { text: params.text } : {}),
          ...(params.caption !== undefined ? { caption: params.caption } : {}),
          ...(file ? { file } : {}),
          params,
        };
        bot.sent.push(sent);
        const message = {
          message_id: sent.message_id,
          date: Math.floor(Date.now() / 1000),
          chat: { id: Number(chatId), type: 'private' },
          ...(sent.text !== undefined ? { text: sent.text } : {}),
          ...(sent.caption !== undefined ? { caption: sent.caption } : {}),
        };
        this.remember(bot, chatId, message);
        return this.ok(res, { ...message, ...(replyTo ? { reply_to_message: replyTo } : {}) });
      }
      default:
        return this.fail(res, 404, 'Not Found');
    }
  }

  private getUpdates(bot: Bot, params: Record<string, string>, res: ServerResponse) {
    bot.getUpdatesCalls += 1;
    if (bot.polling > 0) {
      bot.conflicts += 1;
      return this.fail(
        res,
        409,
        'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
      );
    }
    const offset = Number(params.offset ?? 0);
    // An offset confirms every update before it: Telegram forgets them.
    if (offset > 0) bot.updates = bot.updates.filter((u) => u.update_id >= offset);
    const limit = Math.min(Number(params.limit ?? 100) || 100, 100);
    const pending = () => bot.updates.filter((u) => u.update_id >= offset).slice(0, limit);
    const ready = pending();
    const timeout = Number(params.timeout ?? 0);
    if (ready.length || timeout <= 0) return this.ok(res, ready);
    bot.polling += 1;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      bot.polling -= 1;
      if (bot.waiting === finish) bot.waiting = null;
      if (!res.writableEnded && !res.destroyed) this.ok(res, pending());
    };
    const timer = setTimeout(finish, timeout * 1000);
    bot.waiting = finish;
    // The client gave up (aborted): the poll is over.
    res.on('close', finish);
  }

  private ok(res: ServerResponse, result: unknown) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, result }));
  }

  private fail(
    res: ServerResponse,
    code: number,
    description: string,
    parameters?: { retry_after: number },
  ) {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ok: false,
        error_code: code,
        description,
        ...(parameters ? { parameters } : {}),
      }),
    );
  }
}

/** The Bot API takes parameters in the query string, JSON, a form, or multipart. */
async function readParams(
  req: IncomingMessage,
  url: URL,
): Promise<{ params: Record<string, string>; file: SentMessage['file'] | undefined }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const params: Record<string, string> = Object.fromEntries(url.searchParams);
  let file: SentMessage['file'];
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/json') && body.length) {
    const json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    for (const [key, value] of Object.entries(json)) {
      params[key] = typeof value === 'string' ? value : JSON.stringify(value);
    }
  } else if (
    type.startsWith('multipart/form-data') ||
    type.startsWith('application/x-www-form-urlencoded')
  ) {
    const form = await new Request('http://local/', {
      method: 'POST',
      headers: { 'content-type': type },
      body,
    }).formData();
    for (const [key, value] of form.entries()) {
      if (typeof value === 'string') params[key] = value;
      else {
        file = {
          field: key,
          bytes: Buffer.from(await value.arrayBuffer()),
          name: value.name,
          type: value.type,
        };
      }
    }
  }
  return { params, file };
}
