import type { TeamsService } from '../teams/teams.service.js';
import type { LabelsService } from '../labels/labels.service.js';
import type { AdminCallRegistry } from '../../plugins/admin-calls.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { SeatsService } from '../seats/seats.service.js';
import type { EngineRoutesService } from '../translation/engine-routes.service.js';
import type { GlossaryService } from '../translation/glossary.service.js';
import type { AdminAuthService, AuthAdmin } from './admin-auth.service.js';
import type { AdminConsoleService } from './admin-console.service.js';
import type { AdminStatsService } from './admin-stats.service.js';
import type { AuditService, Actor } from './audit.service.js';

export interface AdminRouteServices {
  adminAuth: AdminAuthService;
  adminConsole: AdminConsoleService;
  adminStats: AdminStatsService;
  audit: AuditService;
  seats: SeatsService;
  accounts: AccountsService;
  glossary: GlossaryService;
  engineRoutes: EngineRoutesService;
  teams: TeamsService;
  labels: LabelsService;
}

const actorOf = (admin: AuthAdmin): Actor => ({ type: 'admin', name: admin.account });

/** The administrator's calls: thin, each one service call (the rules live in the services). */
export function adminRoutes(calls: AdminCallRegistry, s: AdminRouteServices) {
  calls.public('/v1/admin/login', (input, request) =>
    s.adminAuth.login(input.account, input.password, request.ip),
  );
  calls.authed('/v1/admin/logout', (input, admin) => s.adminAuth.logout(admin, input.all_devices));
  calls.authed('/v1/admin/me', async (_input, admin) => s.adminAuth.me(admin));

  calls.authed('/v1/admin/seats/list', (input) => s.adminConsole.seats(input));
  calls.authed('/v1/admin/seats/create', async (input, admin) =>
    s.adminConsole.seat(await s.seats.create(input, actorOf(admin))),
  );
  calls.authed('/v1/admin/seats/update', async (input, admin) =>
    s.adminConsole.seat(await s.seats.setNickname(input.seat_id, input.nickname, actorOf(admin))),
  );
  calls.authed('/v1/admin/seats/resetPassword', async (input, admin) =>
    s.adminConsole.seat(await s.seats.resetPassword(input.seat_id, input.password, actorOf(admin))),
  );
  calls.authed('/v1/admin/seats/freeze', async (input, admin) =>
    s.adminConsole.seat(await s.seats.setFrozen(input.seat_id, input.frozen, actorOf(admin))),
  );

  calls.authed('/v1/admin/accounts/list', (input) => s.adminConsole.accounts(input));
  calls.authed(
    '/v1/admin/accounts/create',
    async (input, admin) => {
      const row = await s.accounts.add(
        {
          phone: input.send_phone,
          label: input.label,
          channel: input.channel,
          seat: input.seat_id,
        },
        actorOf(admin),
      );
      return s.adminConsole.account(row.send_phone);
    },
    { phoneFormatFields: ['send_phone'] },
  );
  calls.authed('/v1/admin/accounts/update', async (input, admin) => {
    const row = await s.accounts.setLabel(input.account_id, input.label, actorOf(admin));
    return s.adminConsole.account(row.send_phone);
  });
  calls.authed('/v1/admin/accounts/assign', async (input, admin) => {
    const { moved, account } = await s.accounts.assign(
      input.account_id,
      input.seat_id,
      actorOf(admin),
    );
    return { account: await s.adminConsole.account(account.send_phone), moved_chats: moved };
  });
  calls.authed('/v1/admin/teams/list', () => s.teams.list());
  calls.authed('/v1/admin/teams/set', (input, admin) => s.teams.set(input, actorOf(admin)));
  calls.authed('/v1/admin/teams/notes', (input) => s.teams.notesOfAccount(input));

  calls.authed('/v1/admin/labels/list', () => s.labels.adminList());
  calls.authed('/v1/admin/labels/create', (input, admin) => s.labels.create(input, actorOf(admin)));
  calls.authed('/v1/admin/labels/update', (input, admin) => s.labels.update(input, actorOf(admin)));
  calls.authed('/v1/admin/labels/delete', (input, admin) => s.labels.remove(input, actorOf(admin)));
  calls.authed('/v1/admin/accounts/setChannel', async (input, admin) => {
    const account = await s.accounts.setChannel(input.account_id, input, actorOf(admin));
    return s.adminConsole.account(account.send_phone);
  });

  calls.authed('/v1/admin/overview', (input) => s.adminConsole.overview(input.tz_offset_min));
  calls.authed('/v1/admin/outbox/list', (input) => s.adminConsole.outboxList(input));
  calls.authed('/v1/admin/outbox/retry', (input, admin) =>
    s.adminConsole.retryOutbox(input.outbox_id, actorOf(admin)),
  );
  calls.authed('/v1/admin/audit/list', (input) => s.audit.list(input));
  calls.authed('/v1/admin/stats/series', (input) => s.adminStats.series(input));
  calls.authed('/v1/admin/stats/seat', (input) => s.adminStats.seat(input));
  calls.authed('/v1/admin/glossary/list', (input) => s.glossary.list(input));
  calls.authed('/v1/admin/glossary/add', (input, admin) => s.glossary.add(input, actorOf(admin)));
  calls.authed('/v1/admin/glossary/delete', (input, admin) =>
    s.glossary.remove(input.entry_id, actorOf(admin)),
  );
  calls.authed('/v1/admin/glossary/import', (input, admin) =>
    s.glossary.import(input.entries, actorOf(admin)),
  );
  calls.authed('/v1/admin/engine_routes/list', () => s.engineRoutes.list());
  calls.authed('/v1/admin/engine_routes/set', (input, admin) =>
    s.engineRoutes.set(input, actorOf(admin)),
  );
  calls.authed('/v1/admin/engine_routes/delete', (input, admin) =>
    s.engineRoutes.remove(input.route_id, actorOf(admin)),
  );
  // A channel's own calls (an account's binding state) are its mount's, before these.
  const missing = calls.missing();
  if (missing.length) throw new Error(`admin calls without a route: ${missing.join(', ')}`);
}
