import type { z } from 'zod';
import * as auth from './auth.js';
import * as groups from './groups.js';
import * as sessions from './sessions.js';
import * as messages from './messages.js';
import * as quickReplies from './quick-replies.js';
import * as translation from './translation.js';
import * as telegram from './telegram.js';
import * as whatsapp from './whatsapp.js';
import * as mediaCalls from './media.js';
import * as push from './push.js';
import * as team from './team.js';
import * as labels from './labels.js';

/**
 * Whether a call may run twice with the same effect as once (`safe`): a read, a call that sets
 * a state, or a send stored once per client id (client_msg_id, batch_id). A load balancer passes
 * only these to another instance when the first failed after the request was sent
 * (deploy/nginx.conf's retry location is generated from it: scripts/gen-nginx-retry.mjs).
 * `once`: creates, deletes, logs out, costs an engine's quota, or is audited per call.
 */
export type Retry = 'safe' | 'once';

interface CallDef<Req extends z.ZodTypeAny, Res extends z.ZodTypeAny> {
  request: Req;
  response: Res;
  /** False only for login and token_login. */
  auth: boolean;
  /** True for the spec's 22 paths; false for Parley's documented extensions. */
  spec: boolean;
  /** Safe to send twice (RETRY): a load balancer may pass it to another instance after a failure. */
  retrySafe: boolean;
  summary: string;
}
function call<Req extends z.ZodTypeAny, Res extends z.ZodTypeAny>(
  request: Req,
  response: Res,
  summary: string,
  retry: Retry,
  authRequired = true,
): CallDef<Req, Res> {
  return {
    request,
    response,
    summary,
    auth: authRequired,
    spec: true,
    retrySafe: retry === 'safe',
  };
}
/** A call the spec does not list, needed by a feature it does (search, address book, ...). */
function extension<Req extends z.ZodTypeAny, Res extends z.ZodTypeAny>(
  request: Req,
  response: Res,
  summary: string,
  retry: Retry,
): CallDef<Req, Res> {
  return { request, response, summary, auth: true, spec: false, retrySafe: retry === 'safe' };
}

/** Every call of the spec's section 7 (22 paths), keyed by path. */
export const CALLS = {
  '/v1/seat/chat/login': call(
    auth.loginRequest,
    auth.loginResponse,
    'Log in with account and password; returns user info with a token.',
    'safe',
    false,
  ),
  '/v1/seat/chat/token_login': call(
    auth.tokenLoginRequest,
    auth.tokenLoginResponse,
    'Exchange a token (single sign-on hand-off) for the user info.',
    'safe',
    false,
  ),
  '/v1/seat/chat/getGroupList': call(
    groups.getGroupListRequest,
    groups.getGroupListResponse,
    "The seat's groups with unread counts and the totals of both time tabs.",
    'safe',
  ),
  '/v1/seat/chat/getGroupInfo': call(
    sessions.getGroupInfoRequest,
    sessions.getGroupInfoResponse,
    'The chats of one group, filtered by time tab and reply filter; pinned first, then latest activity; keyset-paged.',
    'safe',
  ),
  '/v1/seat/chat/getChatRecord': call(
    messages.getChatRecordRequest,
    messages.getChatRecordResponse,
    'Messages of one chat, newest page first; page to older ones with before_id.',
    'safe',
  ),
  '/v1/seat/chat/doGroup': call(
    groups.doGroupRequest,
    groups.doGroupResponse,
    'Create (add), rename (edit) or delete (del) a custom group; deleting moves its chats to Ungrouped.',
    'once',
  ),
  '/v1/seat/chat/delSession': call(
    sessions.delSessionRequest,
    sessions.delSessionResponse,
    'Remove a chat from the console.',
    'once',
  ),
  '/v1/seat/chat/addSession': call(
    sessions.addSessionRequest,
    sessions.addSessionResponse,
    'Start a chat with a customer number from one of the seat’s accounts, sending a greeting.',
    'safe',
  ),
  '/v1/seat/chat/moveSessionGroup': call(
    sessions.moveSessionGroupRequest,
    sessions.moveSessionGroupResponse,
    'Move a chat to another group.',
    'safe',
  ),
  '/v1/seat/chat/sessionDoTop': call(
    sessions.sessionDoTopRequest,
    sessions.sessionDoTopResponse,
    'Pin or unpin a chat.',
    'safe',
  ),
  '/v1/seat/chat/block': call(
    sessions.blockRequest,
    sessions.blockResponse,
    'Block a customer: the chat moves to the disabled Blocked group.',
    'safe',
  ),
  '/v1/seat/chat/unblock': call(
    sessions.unblockRequest,
    sessions.unblockResponse,
    'Unblock a customer: the chat moves back to Ungrouped.',
    'safe',
  ),
  '/v1/seat/chat/message': call(
    messages.messageRequest,
    messages.messageResponse,
    "Send a message; stored once per client_msg_id. On a team account, another member's reply to the same customer less than 10 s ago: 409005 (who and when), nothing sent, unless `confirmed`.",
    'safe',
  ),
  '/v1/seat/chat/batch_message': call(
    messages.batchMessageRequest,
    messages.batchMessageResponse,
    'Send one message to many chats (chosen chats and/or whole groups) at a safe pace; sent once per chat per batch_id; answers the batch status.',
    'safe',
  ),
  '/v1/seat/chat/oneClickRead': call(
    groups.oneClickReadRequest,
    groups.oneClickReadResponse,
    'Mark every chat (or every chat of a group) read.',
    'safe',
  ),
  '/v1/seat/chat/del_message': call(
    messages.delMessageRequest,
    messages.delMessageResponse,
    'Delete a message only for me, or for all.',
    'once',
  ),
  '/v1/seat/chat/quickReplyList': call(
    quickReplies.quickReplyListRequest,
    quickReplies.quickReplyListResponse,
    "The seat's quick replies and materials.",
    'safe',
  ),
  '/v1/seat/chat/quickReplyDoType': call(
    quickReplies.quickReplyDoTypeRequest,
    quickReplies.quickReplyDoTypeResponse,
    'Create, edit or delete a quick reply or material.',
    'once',
  ),
  '/v1/seat/chat/set_remark': call(
    sessions.setRemarkRequest,
    sessions.setRemarkResponse,
    'Set the remark of a chat’s customer.',
    'safe',
  ),
  '/v1/seat/chat/get_remark': call(
    sessions.getRemarkRequest,
    sessions.getRemarkResponse,
    'Get the remark of a chat’s customer.',
    'safe',
  ),
  '/v1/seat/chat/translate/text_v2': call(
    translation.translateTextRequest,
    translation.translateTextResponse,
    'Translate one or many texts of a chat through the configured engines (with fallback), served from the shared translation memory when known. Errors: 422001 (no configured engine offers the pair) and 501002 (no engine configured), both "Translation error" with the pair asked and what each engine offers in data; 500005 "Translation failed" (engines unreachable, busy or out of quota); data says why.',
    'once',
  ),
  '/v1/seat/tg/userInfo': call(
    telegram.tgUserInfoRequest,
    telegram.tgUserInfoResponse,
    'Telegram profile of a chat’s customer; null for a chat of a non-Telegram account or while no profile is known.',
    'safe',
  ),
  // Parley extensions: calls behind features the spec names but whose calls it does not show.
  '/v1/seat/wa/templates': extension(
    whatsapp.waTemplatesRequest,
    whatsapp.waTemplatesResponse,
    "The approved templates of one of the seat's accounts on WhatsApp, from the Graph API (addSession's greeting there is a template); null for an account on another channel; another seat's account answers 400003.",
    'safe',
  ),
  '/v1/seat/wa/sendTemplate': extension(
    whatsapp.waSendTemplateRequest,
    whatsapp.waSendTemplateResponse,
    "Send one of the number's approved templates, its placeholders filled, to a WhatsApp chat of the seat (past the 24-hour window WhatsApp accepts nothing else); stored once per client_msg_id as the text the customer gets, delivered through the outbox. Errors: 100001 with data.reason `template_unknown` (no approved template of that name and language), `template_parameters` (not one value per placeholder) or `not_whatsapp` (a chat of another channel); 400001 for a chat that is not the seat's.",
    'safe',
  ),
  '/v1/seat/chat/batch_status': extension(
    messages.batchStatusRequest,
    messages.batchStatusResponse,
    'Progress and per-chat result of a batch reply.',
    'safe',
  ),
  '/v1/seat/chat/searchMessage': extension(
    messages.searchMessageRequest,
    messages.searchMessageResponse,
    'Messages of all the seat’s chats containing a word of at least 6 characters, newest first; keyset-paged.',
    'safe',
  ),
  '/v1/seat/chat/addressBook': extension(
    sessions.addressBookRequest,
    sessions.addressBookResponse,
    'Every customer the seat chats with, across its accounts, by number; searchable by number, remark or the channel’s name of the customer; with session_id, only that chat if it is the seat’s (an empty list otherwise).',
    'safe',
  ),
  '/v1/seat/chat/translate/languages': extension(
    translation.translationLanguagesRequest,
    translation.translationLanguagesResponse,
    'The translation engine in use and the languages or pairs it offers, and what each configured engine offers. Errors: 501002 "Translation error" (no engine configured), 500005 "Failed to get language list" (no engine could tell).',
    'safe',
  ),
  '/v1/seat/chat/logout': extension(
    auth.logoutRequest,
    auth.logoutResponse,
    'End the login of the token sent (logout), or with all_devices every login of the seat (this one included). The ended tokens answer 400002 from then on and their push sockets close.',
    'once',
  ),
  '/v1/seat/chat/markUnread': extension(
    sessions.markUnreadRequest,
    sessions.markUnreadResponse,
    'Mark one of the seat’s chats unread: its unread count becomes at least 1, and the counts of its group, its time tab and the total follow (session.updated and groups.changed are pushed). Another seat’s chat answers 400001.',
    'safe',
  ),
  '/v1/seat/chat/mute': extension(
    sessions.muteRequest,
    sessions.muteResponse,
    'Mute (or unmute) one of the seat’s chats: its customers’ messages are then not notified on the seat’s devices (Web Push). Per seat and chat; session.muted is pushed to the seat’s consoles. Another seat’s chat answers 400001.',
    'safe',
  ),
  '/v1/seat/chat/mutedChats': extension(
    sessions.mutedChatsRequest,
    sessions.mutedChatsResponse,
    'The ids of the seat’s muted chats.',
    'safe',
  ),
  '/v1/seat/chat/set_customer_language': extension(
    translation.setCustomerLanguageRequest,
    translation.setCustomerLanguageResponse,
    'Remember (or clear) the customer language of one of the seat’s chats; shown as customer_language in the chat item.',
    'safe',
  ),
  '/v1/seat/chat/translate/round_trip': extension(
    translation.roundTripRequest,
    translation.roundTripResponse,
    'Translate an operator’s reply into the customer’s language and back into the operator’s (by another engine when one offers the reverse pair: at most one engine request more than the translation; the shared memory answers a repeated text for nothing), with the facts (numbers, amounts, dates, links, e-mails, names, negations) that did not survive flagged. The seat’s own chats only (400001). Errors as text_v2 for the translation; a back-translation no engine could make is null with back_failure.',
    'once',
  ),
  '/v1/seat/chat/translate/sent_round_trip': extension(
    translation.sentRoundTripRequest,
    translation.sentRoundTripResponse,
    'The back-translation and flags of a reply the seat sent translated, and the engines that made its translation and back-translation, kept from its round trip (null when it had none). Another seat’s chat, or a message not of this chat, answers 400001.',
    'safe',
  ),
  '/v1/seat/push/key': extension(
    push.pushKeyRequest,
    push.pushKeyResponse,
    "The server's VAPID public key, the applicationServerKey of the browser's Web Push subscription.",
    'safe',
  ),
  '/v1/seat/push/subscribe': extension(
    push.pushSubscribeRequest,
    push.pushSubscribeResponse,
    "Notify this device (a browser's Web Push subscription) of customers' messages while the console is closed or in the background; refused (422002) for an endpoint that is not https, not a known push service, or at a private address.",
    'safe',
  ),
  '/v1/seat/push/unsubscribe': extension(
    push.pushUnsubscribeRequest,
    push.pushUnsubscribeResponse,
    "Stop notifying this device (one of the seat's own subscriptions; another's is not found).",
    'once',
  ),
  '/v1/seat/push/test': extension(
    push.pushTestRequest,
    push.pushTestResponse,
    "Send a test notification to one of the seat's subscribed devices.",
    'once',
  ),
  // Labels (issue 35): the isolation rule in `labels.ts`; a chat the seat may not see answers 400001.
  '/v1/seat/label/list': extension(
    labels.labelListRequest,
    labels.labelListResponse,
    "The workspace's labels (the owner defines them), by name: a console's filter and label picker.",
    'safe',
  ),
  '/v1/seat/label/set': extension(
    labels.labelSetRequest,
    labels.labelSetResponse,
    "Set the labels on a chat's customer (the whole set; at most 10). A chat the seat may not see: 400001, as one that does not exist; an unknown label: 400001; nothing changes.",
    'safe',
  ),
  // Team accounts (issue 35): the isolation rule in `team.ts`; any other chat answers 400001.
  '/v1/seat/team/queue': extension(
    team.teamQueueRequest,
    team.teamQueueResponse,
    "The queues of the team accounts the seat is a member of: each one's count, oldest wait and the chats waiting longest.",
    'safe',
  ),
  '/v1/seat/team/take': extension(
    team.teamTakeRequest,
    team.teamTakeResponse,
    "Take a chat waiting in one of the seat's team queues: it moves to the seat's Ungrouped group. Another member took it first: 409002.",
    'safe',
  ),
  '/v1/seat/team/handOver': extension(
    team.teamHandOverRequest,
    team.teamHandOverResponse,
    'Hand a chat the seat holds to another member of its team, with an optional private note; the member is told at once. A seat that is not a member: 409003; a frozen member: 409004; nothing changes.',
    'once',
  ),
  '/v1/seat/team/backToQueue': extension(
    team.teamBackToQueueRequest,
    team.teamBackToQueueResponse,
    "Put a chat the seat holds back in its team's queue, with an optional private note.",
    'once',
  ),
  '/v1/seat/team/members': extension(
    team.teamMembersRequest,
    team.teamMembersResponse,
    "The members of a team chat's account and who holds the chat (the hand-over dialog, the chat header).",
    'safe',
  ),
  '/v1/seat/team/addNote': extension(
    team.teamAddNoteRequest,
    team.teamAddNoteResponse,
    'Write a private note in a team chat: seen by the team and the owner, never sent to the customer.',
    'once',
  ),
  '/v1/seat/team/notes': extension(
    team.teamNotesRequest,
    team.teamNotesResponse,
    "A team chat's private notes, oldest first.",
    'safe',
  ),
  '/v1/seat/team/searchNotes': extension(
    team.teamSearchNotesRequest,
    team.teamSearchNotesResponse,
    'Private notes containing a text, of the chats the seat may see (held, or waiting in its queues), newest first.',
    'safe',
  ),
  '/v1/seat/team/presence': extension(
    team.teamPresenceRequest,
    team.teamPresenceResponse,
    "Say that the seat's console shows a team chat (viewing), that its operator types in it (typing) or that it no longer shows it (left): the chat's other members and its holder are told live (a `presence` frame on the push channel), nothing is stored.",
    'safe',
  ),
  '/v1/seat/team/chatRecord': extension(
    team.teamChatRecordRequest,
    team.teamChatRecordResponse,
    'Messages of a team chat the seat holds or that waits in one of its queues (read before taking it), newest page first; page to older ones with before_id.',
    'safe',
  ),
} as const;

export type CallPath = keyof typeof CALLS;
/** What a client may send (defaults optional). */
export type CallInput<P extends CallPath> = z.input<(typeof CALLS)[P]['request']>;
/** What the server sees after parsing (defaults applied). */
export type CallRequest<P extends CallPath> = z.output<(typeof CALLS)[P]['request']>;
export type CallResponse<P extends CallPath> = z.output<(typeof CALLS)[P]['response']>;
export const CALL_PATHS = Object.keys(CALLS) as CallPath[];
/** The spec's 22 paths (section 7). */
export const SPEC_CALL_PATHS = CALL_PATHS.filter((p) => CALLS[p].spec);

export {
  auth,
  groups,
  sessions,
  messages,
  quickReplies,
  translation,
  telegram,
  whatsapp,
  mediaCalls,
  push,
  team,
  labels,
};
