import type { CallRegistry } from '../../plugins/calls.js';
import type { TranslationService } from './translation.service.js';

export function translationRoutes(calls: CallRegistry, translation: TranslationService) {
  calls.authed('/v1/seat/chat/translate/text_v2', (input, seat) =>
    translation.translateTexts(seat.seatId, input),
  );
  calls.authed('/v1/seat/chat/translate/languages', () => translation.languages());
  calls.authed('/v1/seat/chat/translate/round_trip', (input, seat) =>
    translation.roundTrip(seat.seatId, input),
  );
  calls.authed('/v1/seat/chat/translate/sent_round_trip', (input, seat) =>
    translation.sentRoundTrip(seat.seatId, input),
  );
  calls.authed('/v1/seat/chat/set_customer_language', (input, seat) =>
    translation.setCustomerLanguage(seat.seatId, input),
  );
}
