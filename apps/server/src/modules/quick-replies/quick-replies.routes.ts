import type { CallRegistry } from '../../plugins/calls.js';
import type { QuickRepliesService } from './quick-replies.service.js';

export function quickRepliesRoutes(calls: CallRegistry, quickReplies: QuickRepliesService) {
  calls.authed('/v1/seat/chat/quickReplyList', (_input, seat) => quickReplies.list(seat.seatId));
  calls.authed('/v1/seat/chat/quickReplyDoType', (input, seat) =>
    quickReplies.doType(seat.seatId, input),
  );
}
