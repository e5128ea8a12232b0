import type { CallRegistry } from '../../plugins/calls.js';
import type { LabelsService } from './labels.service.js';

export function labelsRoutes(calls: CallRegistry, labels: LabelsService) {
  calls.authed('/v1/seat/label/list', () => labels.list());
  calls.authed('/v1/seat/label/set', (input, seat) => labels.set(seat.seatId, input));
}
