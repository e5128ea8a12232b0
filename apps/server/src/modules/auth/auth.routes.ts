import type { CallRegistry } from '../../plugins/calls.js';
import type { AuthService } from './auth.service.js';

export function authRoutes(calls: CallRegistry, auth: AuthService) {
  calls.public('/v1/seat/chat/login', (input, request) =>
    auth.login(input.account, input.password, request.ip),
  );
  calls.public('/v1/seat/chat/token_login', (input) => auth.tokenLogin(input.token));
  calls.authed('/v1/seat/chat/logout', (input, seat) => auth.logout(seat, input.all_devices));
}
