import type { CallRegistry } from '../../plugins/calls.js';
import type { GroupsService } from './groups.service.js';

export function groupsRoutes(calls: CallRegistry, groups: GroupsService) {
  calls.listRead('/v1/seat/chat/getGroupList', (input, seat) =>
    groups.listAnswer(seat.seatId, input),
  );
  calls.authed('/v1/seat/chat/doGroup', (input, seat) => groups.doGroup(seat.seatId, input));
  calls.authed('/v1/seat/chat/oneClickRead', (input, seat) =>
    groups.oneClickRead(seat.seatId, input),
  );
}
