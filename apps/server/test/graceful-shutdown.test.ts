import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PUSH_CLOSE } from '@parley/protocol';
import { openDatabase } from '../src/db/database.js';
import { loadConfig } from '../src/config.js';
import { post, seatWithChat, sendText, startServer, type ServerProcess } from './server-process.js';
import { PushClient } from './ws-client.js';

/**
 * SIGTERM to the built server on SQLite (one instance) while a client sends: it drains and
 * exits 0, and every message it acknowledged is in the database when it starts again.
 */
const root = mkdtempSync(path.join(tmpdir(), 'parley-graceful-'));
const env = {
  PARLEY_DATA_DIR: root,
  PARLEY_DEMO: 'off',
  PARLEY_SHUTDOWN_TIMEOUT_MS: '5000',
  PARLEY_SHUTDOWN_GRACE_MS: '500',
  LOG_FORMAT: 'json',
  LOG_LEVEL: 'info',
};
const servers: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  rmSync(root, { recursive: true, force: true });
});

describe('SIGTERM on SQLite', () => {
  it('drains: nothing acknowledged is lost, push sockets are told to reconnect, exit 0', async () => {
    const server = await startServer(env);
    servers.push(server);
    const chat = await seatWithChat(env, server.base, 'drain-op', '+15550400001', '+447700900401');
    const console = await PushClient.open(server.base, { token: chat.token, last_event_id: 0 });
    await console.waitFor('ready');

    // Several senders at once, as a team of consoles would.
    const acked: number[] = [];
    let refused = 0;
    let n = 0;
    const sender = async () => {
      for (;;) {
        const id = ++n;
        try {
          const res = await sendText(server.base, chat, `drain ${id}`, `drain-message-${id}`);
          expect(res.code).toBe('000000');
          acked.push(res.data.msg_id as number);
        } catch {
          // Refused (503 while draining) or the connection closed: not acknowledged.
          refused += 1;
          return;
        }
      }
    };
    const senders = Array.from({ length: 4 }, sender);
    while (acked.length < 40) await new Promise((r) => setTimeout(r, 10));
    const exit = server.stop('SIGTERM');
    await Promise.all(senders);
    expect(await exit).toBe(0);
    expect(refused).toBe(4);
    expect(console.closed?.code).toBe(PUSH_CLOSE.SERVICE_RESTART);
    expect(server.output()).toContain('"msg":"shut down"');

    // Started again on the same files: every acknowledged message is there.
    const database = await openDatabase(loadConfig(env));
    try {
      const rows = await database.db.selectFrom('messages').select('id').execute();
      const have = new Set(rows.map((r) => r.id));
      expect(acked.filter((id) => !have.has(id))).toEqual([]);
    } finally {
      await database.close();
    }
    const again = await startServer(env);
    servers.push(again);
    const record = await post(
      again.base,
      '/v1/seat/chat/getChatRecord',
      { send_phone: chat.phone, receiver_phone: chat.customer, page_size: 100 },
      chat.token,
    );
    expect(record.code).toBe('000000');
    expect(await again.stop('SIGTERM')).toBe(0);
  }, 60_000);
});
