import type { CallRegistry } from '../../plugins/calls.js';
import type { AddressBookService } from './address-book.service.js';

export function addressBookRoutes(calls: CallRegistry, book: AddressBookService) {
  calls.authed('/v1/seat/chat/addressBook', (input, seat) => book.list(seat.seatId, input));
}
