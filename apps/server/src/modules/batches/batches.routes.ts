import type { CallRegistry } from '../../plugins/calls.js';
import type { BatchesService } from './batches.service.js';

export function batchesRoutes(calls: CallRegistry, batches: BatchesService) {
  calls.authed('/v1/seat/chat/batch_message', (input, seat) => batches.create(seat.seatId, input));
  calls.authed('/v1/seat/chat/batch_status', (input, seat) =>
    batches.status(seat.seatId, input.batch_id),
  );
}
