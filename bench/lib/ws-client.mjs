// A push-channel (WebSocket) client for benchmarks: connects to a running server, says hello
// with a token, and hands each event to a callback with the time it arrived.
//
//   import { connectPush } from './lib/ws-client.mjs';
//   const push = await connectPush('http://127.0.0.1:8080', token, {
//     onEvent: (event, receivedAt) => { ... },   // event: { id, type, data, at }
//   });
//   ...
//   push.close();
//
// `ws` comes with the server's dependencies (@fastify/websocket). Node 20 has no global
// WebSocket without a flag, hence the package.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const require = createRequire(new URL('../../apps/server/package.json', import.meta.url));
const WebSocket = require('ws');

/**
 * Resolves once the server answered `ready` (or `reset`); rejects on an `error` frame (e.g.
 * 400002 for a bad token) or when the socket cannot open.
 * @param {string} baseUrl e.g. http://127.0.0.1:8080
 * @param {string} token a seat's token (from /v1/seat/chat/login)
 * @param {{ lastEventId?: number, onEvent?: (event: object, receivedAt: number) => void,
 *           onClose?: (code: number) => void }} [options]
 *   receivedAt is performance.now() when the frame arrived.
 */
export function connectPush(baseUrl, token, options = {}) {
  const url = `${baseUrl.replace(/^http/, 'ws')}/v1/seat/realtime`;
  const ws = new WebSocket(url);
  let lastEventId = options.lastEventId ?? 0;
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ token, last_event_id: lastEventId })));
    ws.on('message', (raw) => {
      const receivedAt = performance.now();
      const frame = JSON.parse(String(raw));
      if (frame.kind === 'ready' || frame.kind === 'reset') {
        resolve({
          ws,
          get lastEventId() {
            return lastEventId;
          },
          close: () => ws.close(),
        });
      } else if (frame.kind === 'event') {
        lastEventId = frame.id;
        options.onEvent?.(frame, receivedAt);
      } else if (frame.kind === 'error') {
        reject(new Error(`push refused: ${frame.code} ${frame.msg}`));
      }
    });
    ws.on('close', (code) => options.onClose?.(code));
  });
}
