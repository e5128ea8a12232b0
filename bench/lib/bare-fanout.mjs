// The ceiling of bench/inbound.mjs: a bare node:http + ws server in its own process that takes
// the same signed webhook (HMAC checked, JSON parsed), answers it, and pushes the same frames
// a console gets for a customer's message (message.created, then groups.changed, each
// serialised once and sent to the seat's sockets) — no database, no log, no checks beyond
// that. Its hello: `{ token: "bare-<seat>" }` -> ready.
//   PORT, BARE_SECRET, BARE_PHONES (JSON: phone -> seat index)
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../apps/server/package.json', import.meta.url));
const { WebSocketServer } = require('ws');

const secret = process.env.BARE_SECRET;
const phones = JSON.parse(process.env.BARE_PHONES);
const bySeat = new Map();
let seq = 0;
let msgId = 0;
const chats = new Map();

const groupsFrame = (unread) => ({
  group_list: ['ungrouped', 'tg_link_pushed', 'blocked'].map((type, i) => ({
    id: i + 1,
    name: type,
    type,
    sort: i,
    un_read_count: i === 0 ? unread : 0,
    one_seat_msg_count: i === 0 ? unread : 0,
    two_seat_msg_count: 0,
    chat_count: i === 0 ? chats.size : 0,
  })),
  seat_one_seat_msg_count: unread,
  seat_two_seat_msg_count: 0,
  un_read_count: unread,
});

function push(seat, type, data) {
  const frame = JSON.stringify({ kind: 'event', id: ++seq, type, data, at: Date.now() });
  for (const ws of bySeat.get(seat) ?? []) ws.send(frame);
}

const server = createServer((req, res) => {
  const parts = [];
  req.on('data', (d) => parts.push(d));
  req.on('end', () => {
    const body = Buffer.concat(parts);
    const ts = req.headers['x-parley-timestamp'];
    const sig = createHmac('sha256', secret).update(`${ts}.`).update(body).digest('hex');
    if (sig !== req.headers['x-parley-signature']) {
      res.writeHead(403).end('{"code":"100002"}');
      return;
    }
    const input = JSON.parse(body.toString('utf8'));
    const seat = phones[input.account];
    const key = `${input.account}|${input.customer}`;
    const chat = chats.get(key) ?? { id: chats.size + 1, unread: 0 };
    chats.set(key, chat);
    chat.unread += 1;
    const now = Date.now();
    const message = {
      msg_id: ++msgId,
      session_id: chat.id,
      client_msg_id: null,
      direction: 'in',
      type: input.type,
      content: input.content,
      original_content: null,
      media: null,
      status: 'delivered',
      created_at: now,
      deleted: false,
    };
    const session = {
      session_id: chat.id,
      send_phone: input.account,
      receiver_phone: input.customer,
      un_read_count: chat.unread,
      add_time: now,
      latest_time: now,
      group_id: 1,
      is_top: false,
      remark: '',
      blocked: false,
      user_time_type: 1,
      customer_language: null,
      last_message: { direction: 'in', type: input.type, preview: input.content, time: now },
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: '000000', data: { msg_id: message.msg_id, blocked: false } }));
    push(seat, 'message.created', { message, session });
    push(seat, 'groups.changed', groupsFrame(chat.unread));
  });
});

// As Fastify's (the server's): a keep-alive connection idle 5 s (Node's default) closes while
// the bench's client may be reusing it, failing that request.
server.keepAliveTimeout = 72_000;

const wss = new WebSocketServer({ server, maxPayload: 4096 });
wss.on('connection', (ws) => {
  ws.once('message', (raw) => {
    const seat = Number(/^bare-(\d+)$/.exec(JSON.parse(String(raw)).token)?.[1]);
    let set = bySeat.get(seat);
    if (!set) bySeat.set(seat, (set = new Set()));
    set.add(ws);
    ws.on('close', () => set.delete(ws));
    ws.send(JSON.stringify({ kind: 'ready', last_event_id: 0, heartbeat_ms: 30_000 }));
  });
});

server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.({ listening: true }));
