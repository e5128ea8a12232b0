import type { CallRegistry } from '../../plugins/calls.js';
import type { SearchService } from './search.service.js';

export function searchRoutes(calls: CallRegistry, search: SearchService) {
  calls.authed('/v1/seat/chat/searchMessage', (input, seat) =>
    search.searchMessages(seat.seatId, input),
  );
}
