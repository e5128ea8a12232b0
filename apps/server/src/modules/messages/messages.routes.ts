import type { CallRegistry } from '../../plugins/calls.js';
import type { MessagesService } from './messages.service.js';

export function messagesRoutes(calls: CallRegistry, messages: MessagesService) {
  calls.authed('/v1/seat/chat/getChatRecord', (input, seat) =>
    messages.chatRecord(seat.seatId, input),
  );
  calls.authed('/v1/seat/chat/message', (input, seat) => messages.send(seat.seatId, input));
  calls.authed('/v1/seat/chat/del_message', (input, seat) => messages.remove(seat.seatId, input));
}
