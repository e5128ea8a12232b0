import type { CallRegistry } from '../../plugins/calls.js';
import type { PushService } from './push.service.js';

export function pushRoutes(calls: CallRegistry, push: PushService) {
  calls.authed('/v1/seat/push/key', async () => push.publicKey());
  calls.authed('/v1/seat/push/subscribe', (input, seat) => push.subscribe(seat, input));
  calls.authed('/v1/seat/push/unsubscribe', (input, seat) => push.unsubscribe(seat.seatId, input));
  calls.authed('/v1/seat/push/test', (input, seat) => push.test(seat.seatId, input));
}
