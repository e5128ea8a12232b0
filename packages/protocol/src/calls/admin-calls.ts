import type { z } from 'zod';
import * as admin from './admin.js';
import * as labels from './labels.js';
import type { Retry } from './index.js';

interface AdminCallDef<Req extends z.ZodTypeAny, Res extends z.ZodTypeAny> {
  request: Req;
  response: Res;
  /** False only for login. */
  auth: boolean;
  spec: false;
  /** Safe to send twice (Retry in ./index.ts). */
  retrySafe: boolean;
  summary: string;
}
function call<Req extends z.ZodTypeAny, Res extends z.ZodTypeAny>(
  request: Req,
  response: Res,
  summary: string,
  retry: Retry,
  authRequired = true,
): AdminCallDef<Req, Res> {
  return {
    request,
    response,
    summary,
    auth: authRequired,
    spec: false,
    retrySafe: retry === 'safe',
  };
}

/**
 * The administrator's calls, keyed by path: `POST`, the same envelope and codes as the seat's
 * CALLS, with an admin token (from /v1/admin/login) in `Authorization`. A seat token is refused
 * here with 400002, as an admin token is on every seat call.
 */
export const ADMIN_CALLS = {
  '/v1/admin/login': call(
    admin.adminLoginRequest,
    admin.adminLoginResponse,
    'Administrator login with account and password (same hashing, throttle and expiry as seats); returns an admin token.',
    'safe',
    false,
  ),
  '/v1/admin/logout': call(
    admin.adminLogoutRequest,
    admin.adminLogoutResponse,
    'End the login of the admin token sent, or with all_devices every login of the administrator.',
    'once',
  ),
  '/v1/admin/me': call(
    admin.adminMeRequest,
    admin.adminMeResponse,
    'The administrator the token belongs to.',
    'safe',
  ),
  '/v1/admin/seats/list': call(
    admin.adminSeatsListRequest,
    admin.adminSeatsListResponse,
    'Seats with presence, phone accounts, open chats, unread, chats waiting for reply and the oldest wait; by account; keyset-paged.',
    'safe',
  ),
  '/v1/admin/seats/create': call(
    admin.adminSeatsCreateRequest,
    admin.adminSeatsCreateResponse,
    'Create a seat and its built-in groups. An account already taken: 500002.',
    'once',
  ),
  '/v1/admin/seats/update': call(
    admin.adminSeatsUpdateRequest,
    admin.adminSeatsUpdateResponse,
    "Change a seat's nickname.",
    'once',
  ),
  '/v1/admin/seats/resetPassword': call(
    admin.adminSeatsResetPasswordRequest,
    admin.adminSeatsResetPasswordResponse,
    "Set a seat's password; its logins end and its push sockets close.",
    'once',
  ),
  '/v1/admin/seats/freeze': call(
    admin.adminSeatsFreezeRequest,
    admin.adminSeatsFreezeResponse,
    'Freeze (logins refused with 200002, current logins end, push sockets close at once) or unfreeze a seat.',
    'once',
  ),
  '/v1/admin/accounts/list': call(
    admin.adminAccountsListRequest,
    admin.adminAccountsListResponse,
    'Phone accounts with their seat, chats and channel (Telegram poll status); by send_phone; keyset-paged.',
    'safe',
  ),
  '/v1/admin/accounts/create': call(
    admin.adminAccountsCreateRequest,
    admin.adminAccountsCreateResponse,
    'Register a phone account (platform or sandbox), optionally assigned to a seat. Taken: 500002; bad number: 400005.',
    'once',
  ),
  '/v1/admin/accounts/update': call(
    admin.adminAccountsUpdateRequest,
    admin.adminAccountsUpdateResponse,
    "Change a phone account's label.",
    'once',
  ),
  '/v1/admin/accounts/assign': call(
    admin.adminAccountsAssignRequest,
    admin.adminAccountsAssignResponse,
    'Assign a phone account to a seat or move it to another; its chats move with it.',
    'once',
  ),
  '/v1/admin/teams/list': call(
    admin.adminTeamsListRequest,
    admin.adminTeamsListResponse,
    'Team accounts with their members (chats each holds), routing, capacity, queue length and oldest wait.',
    'safe',
  ),
  '/v1/admin/teams/set': call(
    admin.adminTeamsSetRequest,
    admin.adminTeamsSetResponse,
    "Make a phone account a team account or change one (members, routing manual|automatic, capacity per seat); a removed member's chats go back to the queue. Audited as account.set_team. A seat id that is not a seat: 200001.",
    'once',
  ),
  '/v1/admin/teams/notes': call(
    admin.adminTeamsNotesRequest,
    admin.adminTeamsNotesResponse,
    "A team account's private notes, newest first (at most 50), or those containing a text.",
    'safe',
  ),
  '/v1/admin/accounts/setChannel': call(
    admin.adminAccountsSetChannelRequest,
    admin.adminAccountsSetChannelResponse,
    "Set a phone account's channel: platform, sandbox, a Telegram bot (token checked with Telegram first) or a WhatsApp Business number (checked with the Graph API first).",
    'once',
  ),
  '/v1/admin/accounts/telegramStatus': call(
    admin.adminAccountsTelegramStatusRequest,
    admin.adminAccountsTelegramStatusResponse,
    'The Telegram bot of an account and its long-poll state and last error; null when none is bound.',
    'safe',
  ),
  '/v1/admin/accounts/whatsappStatus': call(
    admin.adminAccountsWhatsappStatusRequest,
    admin.adminAccountsWhatsappStatusResponse,
    'The WhatsApp number bound to an account: the webhook URL and verify token for Meta, its verified name and quality rating, and the last Graph API error; null when none is bound. Never the token or the app secret.',
    'safe',
  ),
  '/v1/admin/overview': call(
    admin.adminOverviewRequest,
    admin.adminOverviewResponse,
    'The live overview per seat and in total: messages today, waiting chats, median first response (24 h), outbox, translation usage. Pushed as admin.overview on the admin socket.',
    'safe',
  ),
  '/v1/admin/outbox/list': call(
    admin.adminOutboxListRequest,
    admin.adminOutboxListResponse,
    'Deliveries pending or failed in the outbox, with their error; newest first; keyset-paged.',
    'safe',
  ),
  '/v1/admin/outbox/retry': call(
    admin.adminOutboxRetryRequest,
    admin.adminOutboxRetryResponse,
    'Try a failed delivery again now. Not failed (pending or done): 409001.',
    'once',
  ),
  '/v1/admin/audit/list': call(
    admin.adminAuditListRequest,
    admin.adminAuditListResponse,
    'The audit log of administrator actions (who, what, when, before/after), newest first, filtered; keyset-paged.',
    'safe',
  ),
  '/v1/admin/stats/series': call(
    admin.adminStatsSeriesRequest,
    admin.adminStatsSeriesResponse,
    "The charts' series over local days of a time zone (hours for one day, else days), for every seat or one: messages in and out, chats waiting, first-response median and p90, translation characters by engine and from memory. With since: only the buckets ending after it.",
    'safe',
  ),
  '/v1/admin/stats/seat': call(
    admin.adminStatsSeatRequest,
    admin.adminStatsSeatResponse,
    "One seat's busiest local hours over the range and its chats waiting longest now (ages and counts only, never contents).",
    'safe',
  ),
  '/v1/admin/glossary/list': call(
    admin.adminGlossaryListRequest,
    admin.adminGlossaryListResponse,
    "The workspace's glossary (terms never translated, patterns, fixed translations per pair), oldest first; keyset-paged; with its version.",
    'safe',
  ),
  '/v1/admin/glossary/add': call(
    admin.adminGlossaryAddRequest,
    admin.adminGlossaryAddResponse,
    'Add a glossary entry; it applies to the next translation on every engine. Already there: 500002; glossary full: 500003.',
    'once',
  ),
  '/v1/admin/glossary/delete': call(
    admin.adminGlossaryDeleteRequest,
    admin.adminGlossaryDeleteResponse,
    'Remove a glossary entry. Unknown: 400001.',
    'once',
  ),
  '/v1/admin/glossary/import': call(
    admin.adminGlossaryImportRequest,
    admin.adminGlossaryImportResponse,
    'Add many glossary entries at once; ones already there are skipped. Past the glossary limit: 500003, nothing added.',
    'once',
  ),
  '/v1/admin/engine_routes/list': call(
    admin.adminEngineRoutesListRequest,
    admin.adminEngineRoutesListResponse,
    'The configured translation engines and the engines chosen per language pair.',
    'safe',
  ),
  '/v1/admin/engine_routes/set': call(
    admin.adminEngineRoutesSetRequest,
    admin.adminEngineRoutesSetResponse,
    'Choose the engines (in fallback order) of a language pair. An engine not configured here: 422003.',
    'once',
  ),
  '/v1/admin/engine_routes/delete': call(
    admin.adminEngineRoutesDeleteRequest,
    admin.adminEngineRoutesDeleteResponse,
    'Forget the engines of a pair: it is served by the configured order again. Unknown: 400001.',
    'once',
  ),
  '/v1/admin/labels/list': call(
    labels.adminLabelsListRequest,
    labels.adminLabelsListResponse,
    'The labels members put on customers, by name, each with the number of chats it is on.',
    'safe',
  ),
  '/v1/admin/labels/create': call(
    labels.adminLabelsCreateRequest,
    labels.adminLabelsCreateResponse,
    'Define a label (a name, a colour of the palette). A name another label has, letter case aside: 409006; more than 100 labels: 500003. Audited as label.create.',
    'once',
  ),
  '/v1/admin/labels/update': call(
    labels.adminLabelsUpdateRequest,
    labels.adminLabelsUpdateResponse,
    'Rename or recolour a label; every chat row showing it changes. A name another label has: 409006; unknown: 400001. Audited as label.update.',
    'once',
  ),
  '/v1/admin/labels/delete': call(
    labels.adminLabelsDeleteRequest,
    labels.adminLabelsDeleteResponse,
    'Delete a label: it leaves every customer it was on. Unknown: 400001. Audited as label.delete.',
    'once',
  ),
} as const;

export type AdminCallPath = keyof typeof ADMIN_CALLS;
export type AdminCallInput<P extends AdminCallPath> = z.input<(typeof ADMIN_CALLS)[P]['request']>;
export type AdminCallRequest<P extends AdminCallPath> = z.output<
  (typeof ADMIN_CALLS)[P]['request']
>;
export type AdminCallResponse<P extends AdminCallPath> = z.output<
  (typeof ADMIN_CALLS)[P]['response']
>;
export const ADMIN_CALL_PATHS = Object.keys(ADMIN_CALLS) as AdminCallPath[];
