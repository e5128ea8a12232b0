import type { CallRegistry } from '../../plugins/calls.js';
import type { SessionsService } from './sessions.service.js';

export function sessionsRoutes(calls: CallRegistry, sessions: SessionsService) {
  calls.listRead('/v1/seat/chat/getGroupInfo', (input, seat) =>
    sessions.groupInfoAnswer(seat.seatId, input),
  );
  calls.authed('/v1/seat/chat/sessionDoTop', (input, seat) => sessions.doTop(seat.seatId, input));
  calls.authed('/v1/seat/chat/set_remark', (input, seat) => sessions.setRemark(seat.seatId, input));
  calls.authed('/v1/seat/chat/get_remark', (input, seat) => sessions.getRemark(seat.seatId, input));
  calls.authed('/v1/seat/chat/moveSessionGroup', (input, seat) =>
    sessions.move(seat.seatId, input),
  );
  calls.authed('/v1/seat/chat/markUnread', (input, seat) =>
    sessions.markUnread(seat.seatId, input),
  );
  calls.authed('/v1/seat/chat/block', (input, seat) => sessions.block(seat.seatId, input));
  calls.authed('/v1/seat/chat/unblock', (input, seat) => sessions.unblock(seat.seatId, input));
  calls.authed('/v1/seat/chat/delSession', (input, seat) => sessions.remove(seat.seatId, input));
  calls.authed('/v1/seat/chat/addSession', (input, seat) => sessions.add(seat.seatId, input), {
    // The spec's invalid-account-format answer: a malformed number is 400005, not 100001.
    phoneFormatFields: ['send_phone', 'receiver_phone'],
  });
}
