import type { CallRegistry } from '../../plugins/calls.js';
import type { TeamPresenceService } from './team-presence.service.js';
import type { TeamsService } from './teams.service.js';

export function teamsRoutes(
  calls: CallRegistry,
  teams: TeamsService,
  presence: TeamPresenceService,
) {
  calls.authed('/v1/seat/team/queue', (input, seat) => teams.queue(seat.seatId, input));
  calls.authed('/v1/seat/team/take', (input, seat) => teams.take(seat.seatId, input));
  calls.authed('/v1/seat/team/handOver', (input, seat) => teams.handOver(seat.seatId, input));
  calls.authed('/v1/seat/team/backToQueue', (input, seat) => teams.backToQueue(seat.seatId, input));
  calls.authed('/v1/seat/team/members', (input, seat) => teams.members(seat.seatId, input));
  calls.authed('/v1/seat/team/addNote', (input, seat) => teams.addNote(seat.seatId, input));
  calls.authed('/v1/seat/team/notes', (input, seat) => teams.notes(seat.seatId, input));
  calls.authed('/v1/seat/team/searchNotes', (input, seat) => teams.searchNotes(seat.seatId, input));
  calls.authed('/v1/seat/team/chatRecord', (input, seat) => teams.chatRecord(seat.seatId, input));
  calls.authed('/v1/seat/team/presence', (input, seat) => presence.say(seat.seatId, input));
}
