import type { CallRegistry } from '../../plugins/calls.js';
import type { TelegramService } from './telegram.service.js';

export function telegramRoutes(calls: CallRegistry, telegram: TelegramService) {
  calls.authed('/v1/seat/tg/userInfo', (input, seat) => telegram.userInfo(seat.seatId, input));
}
