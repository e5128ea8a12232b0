import {
  TEAM_TYPING_TTL_MS,
  TEAM_VIEWING_TTL_MS,
  type CallRequest,
  type ServerFrame,
  type TeamPresenceState,
} from '@parley/protocol';
import type { TeamsService } from './teams.service.js';

/** Sends an ephemeral frame to these seats' consoles on every instance (the realtime fan-out). */
export type PresenceTransmit = (seatIds: readonly number[], frame: ServerFrame) => void;

const TTL: Record<TeamPresenceState, number> = {
  viewing: TEAM_VIEWING_TTL_MS,
  typing: TEAM_TYPING_TTL_MS,
  left: 0,
};

/**
 * Who is looking at a team chat (issue 35): a member's console says it shows a chat, that its
 * operator types in it, or that it left it; the other seats that may see the chat are told at
 * once on every instance. Nothing is stored: each word carries a time to live, so a tab that
 * crashed is forgotten by itself. The chat is found through the isolation rule (TeamsService):
 * a seat may only speak of a chat it may see, and only those who may see it hear of it.
 */
export class TeamPresenceService {
  /** Wired by the realtime plugin (app.ts); until then nothing is sent (the CLI). */
  transmit: PresenceTransmit = () => undefined;

  constructor(private readonly teams: TeamsService) {}

  async say(seatId: number, input: CallRequest<'/v1/seat/team/presence'>) {
    const { chat, audience, nickname } = await this.teams.presenceOf(seatId, input.session_id);
    const to = audience.filter((id) => id !== seatId);
    if (to.length > 0) {
      this.transmit(to, {
        kind: 'presence',
        data: {
          session_id: chat.id,
          seat_id: seatId,
          nickname,
          state: input.state,
          ttl_ms: TTL[input.state],
          at: Date.now(),
        },
      });
    }
    return { session_id: chat.id };
  }
}
