import type { CallRegistry } from '../../plugins/calls.js';
import type { MutesService } from './mutes.service.js';

export function mutesRoutes(calls: CallRegistry, mutes: MutesService) {
  calls.authed('/v1/seat/chat/mute', (input, seat) => mutes.mute(seat.seatId, input));
  calls.authed('/v1/seat/chat/mutedChats', (_input, seat) => mutes.mutedChats(seat.seatId));
}
