import { infiniteQueryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { CallResponse, ChatMessage, SessionItem } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';

/**
 * The one module of the cached message history: its keys, its query options and every edit
 * of it. A chat is cached under several keys at once (the live record, a window opened at each
 * search hit), all under `messageKeys.chat(id)`; an edit of a message goes through every one of
 * them, so each open view of the chat shows it.
 */

/** One page of a chat's history, oldest message first within the page. */
export type ChatPage = CallResponse<'/v1/seat/chat/getChatRecord'>;
/** The live record: page 0 is the newest; each next page is older. */
export type ChatData = InfiniteData<ChatPage, number | null>;
/** Where a page of a window starts: around the hit, before (older) or after (newer) an id. */
export type WindowParam = { around_id: number } | { before_id: number } | { after_id: number };
/** A window at a message: pages kept oldest first. */
export type ChatWindowData = InfiniteData<ChatPage, WindowParam>;
/** Any cached form of a chat's history: pages of messages. */
export interface MessagePages {
  pages: { list: ChatMessage[] }[];
}

/** The live record; also the prefix of every cached form of the chat (its windows). */
export const chatKey = (sessionId: number) => ['chat', sessionId] as const;
/** Under the chat's key, so refreshing the chat (a new message) refreshes its windows too. */
export const chatWindowKey = (sessionId: number, msgId: number) =>
  [...chatKey(sessionId), 'window', msgId] as const;

export const messageKeys = {
  /** Every cached form of one chat (the record and its windows). */
  chat: chatKey,
  record: chatKey,
  windows: (sessionId: number) => [...chatKey(sessionId), 'window'] as const,
  window: chatWindowKey,
};

// ---- Query options ---------------------------------------------------------------------

const recordOf = (user: SessionItem) => ({
  receiver_phone: user.receiver_phone,
  send_phone: user.send_phone,
  group_id: user.group_id,
});

/**
 * The record of one chat, cached per chat so that switching is instant. Page 0 is the
 * newest; each next page is older (before_id = oldest msg_id held). Loading it clears the
 * chat's unread count on the server.
 */
export function chatRecordQuery(user: SessionItem) {
  return infiniteQueryOptions({
    queryKey: messageKeys.record(user.session_id),
    queryFn: ({ pageParam, signal }) =>
      callApi(
        '/v1/seat/chat/getChatRecord',
        { ...recordOf(user), before_id: pageParam ?? undefined },
        { signal },
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => (last.has_more ? (last.list[0]?.msg_id ?? undefined) : undefined),
  });
}

/**
 * A chat read from one message outwards (Mattermost's "chunks"): the first page is centred on
 * the hit (`around_id`); older pages are fetched as previous pages (`before_id` the oldest held),
 * newer ones as next pages (`after_id` the newest held) until `has_newer` is false. Pages are
 * kept oldest first.
 */
export function chatWindowQuery(user: SessionItem, msgId: number) {
  return infiniteQueryOptions({
    queryKey: messageKeys.window(user.session_id, msgId),
    queryFn: ({ pageParam, signal }) =>
      callApi('/v1/seat/chat/getChatRecord', { ...recordOf(user), ...pageParam }, { signal }),
    initialPageParam: { around_id: msgId } as WindowParam,
    getPreviousPageParam: (first): WindowParam | undefined => {
      const oldest = first.list[0];
      return first.has_more && oldest ? { before_id: oldest.msg_id } : undefined;
    },
    getNextPageParam: (last): WindowParam | undefined => {
      const newest = last.list.at(-1);
      return last.has_newer && newest ? { after_id: newest.msg_id } : undefined;
    },
  });
}

/** All messages of the window, oldest first. */
export function flattenWindow(pages: readonly ChatPage[]): ChatMessage[] {
  return pages.flatMap((p) => p.list);
}

// ---- Pure edits of the cached pages ----------------------------------------------------

/** Each cached page of the chat with `edit` applied to its messages (untouched when equal). */
export function editMessages<D extends MessagePages>(
  data: D | undefined,
  edit: (list: ChatMessage[]) => ChatMessage[],
): D | undefined {
  if (!data) return data;
  let changed = false;
  const pages = data.pages.map((page) => {
    const list = edit(page.list);
    if (list === page.list) return page;
    changed = true;
    return { ...page, list };
  });
  return changed ? { ...data, pages } : data;
}

export function replaceMessage(list: ChatMessage[], msgId: number, patch: Partial<ChatMessage>) {
  if (!list.some((m) => m.msg_id === msgId)) return list;
  return list.map((m) => (m.msg_id === msgId ? { ...m, ...patch } : m));
}

export function dropMessage(list: ChatMessage[], msgId: number) {
  return list.some((m) => m.msg_id === msgId) ? list.filter((m) => m.msg_id !== msgId) : list;
}

/** What "deleted for all" leaves: the message in place, shown as deleted, content withheld. */
const RETRACTED = { deleted: true, content: '', media: null } satisfies Partial<ChatMessage>;

/** The replies quoting a retracted message show a deleted quote (as the server now has them). */
export function withQuotesDeleted(list: ChatMessage[], msgId: number) {
  if (!list.some((m) => m.reply_to === msgId && m.quote && !m.quote.deleted)) return list;
  return list.map((m) =>
    m.reply_to === msgId && m.quote
      ? { ...m, quote: { ...m.quote, preview: '', deleted: true } }
      : m,
  );
}

/** Deleted only for me: the message leaves this operator's chat. */
export function withoutMessage<D extends MessagePages>(data: D | undefined, msgId: number) {
  return editMessages(data, (list) => dropMessage(list, msgId));
}

/** Deleted for all: the message stays in place, shown as deleted, its content withheld. */
export function withMessageRetracted<D extends MessagePages>(data: D | undefined, msgId: number) {
  return editMessages(data, (list) =>
    withQuotesDeleted(replaceMessage(list, msgId, RETRACTED), msgId),
  );
}

/** Adds the server's copy of a sent message to the newest page (once). */
export function appendServerMessage(data: ChatData | undefined, msg: ChatMessage) {
  if (!data) return data;
  const [newest, ...rest] = data.pages;
  if (!newest || newest.list.some((m) => m.msg_id === msg.msg_id)) return data;
  return { ...data, pages: [{ ...newest, list: [...newest.list, msg] }, ...rest] };
}

/** The same for a window: only one that reaches the chat's newest message (once). */
function appendToWindow(data: ChatWindowData | undefined, msg: ChatMessage) {
  const last = data?.pages.at(-1);
  if (!data || !last || last.has_newer || last.list.some((m) => m.msg_id === msg.msg_id)) {
    return data;
  }
  return { ...data, pages: [...data.pages.slice(0, -1), { ...last, list: [...last.list, msg] }] };
}

// ---- Edits over every key of a chat ----------------------------------------------------

/**
 * A fetch of the chat that is in flight read the server before this edit: its answer would undo
 * the edit (a status back to "sent", a new message gone). So it is made again. One over data
 * held is cancelled, silently, and started anew; a first fetch (nothing held to edit) cannot be
 * cancelled for another, so it is made again once it lands.
 */
function refetchInFlight(qc: QueryClient, sessionId: number): void {
  const inFlight = qc
    .getQueryCache()
    .findAll({ queryKey: messageKeys.chat(sessionId), fetchStatus: 'fetching' });
  for (const { queryKey, state } of inFlight) {
    const exact = { queryKey, exact: true };
    const again = qc.refetchQueries(exact);
    if (state.data === undefined) void again.then(() => qc.refetchQueries(exact));
  }
}

function editChat(qc: QueryClient, sessionId: number, edit: (l: ChatMessage[]) => ChatMessage[]) {
  qc.setQueriesData<MessagePages>({ queryKey: messageKeys.chat(sessionId) }, (d) =>
    editMessages(d, edit),
  );
  refetchInFlight(qc, sessionId);
}

/** A new message of the chat (pushed, or the outbox's answer): added where the newest shows. */
export function upsertMessage(qc: QueryClient, msg: ChatMessage): void {
  qc.setQueryData<ChatData>(messageKeys.record(msg.session_id), (d) => appendServerMessage(d, msg));
  appendToChatWindows(qc, msg);
  refetchInFlight(qc, msg.session_id);
}

/** Adds a sent message to the chat's windows that reach its newest message (once). */
export function appendToChatWindows(qc: QueryClient, msg: ChatMessage): void {
  qc.setQueriesData<ChatWindowData>({ queryKey: messageKeys.windows(msg.session_id) }, (d) =>
    appendToWindow(d, msg),
  );
}

/** A changed message (status, deletion for all, ...), in every view of its chat. */
export function patchMessage(
  qc: QueryClient,
  sessionId: number,
  msgId: number,
  patch: Partial<ChatMessage>,
): void {
  // Retracted: its replies quote a deleted message from now on.
  editChat(qc, sessionId, (l) =>
    patch.deleted
      ? withQuotesDeleted(replaceMessage(l, msgId, patch), msgId)
      : replaceMessage(l, msgId, patch),
  );
}

/** A message gone for this operator, from every view of its chat. */
export function removeMessage(qc: QueryClient, sessionId: number, msgId: number): void {
  editChat(qc, sessionId, (l) => dropMessage(l, msgId));
}

/** A message deleted for all, in every view of its chat. */
export function retractMessage(qc: QueryClient, sessionId: number, msgId: number): void {
  patchMessage(qc, sessionId, msgId, RETRACTED);
}

/** A chat just created: its record is the greeting (no fetch needed). */
export function seedChat(qc: QueryClient, sessionId: number, first: ChatMessage): void {
  qc.setQueryData<ChatData>(messageKeys.record(sessionId), {
    pages: [{ list: [first], has_more: false, has_newer: false }],
    pageParams: [null],
  });
}

/** Selecting a chat resets its list to the newest page (spec section 4). */
export function resetChatPages(qc: QueryClient, sessionId: number): void {
  qc.setQueryData<ChatData>(messageKeys.record(sessionId), (old) =>
    old && old.pages.length > 1
      ? { pages: old.pages.slice(0, 1), pageParams: old.pageParams.slice(0, 1) }
      : old,
  );
}

/** The chat's history is stale (a batch sent into it, the list changed): fetched anew. */
export function refreshChat(qc: QueryClient, sessionId: number): Promise<void> {
  return qc.invalidateQueries({ queryKey: messageKeys.chat(sessionId) });
}

/** The chat is gone: every cached form of it is dropped. */
export function forgetChat(qc: QueryClient, sessionId: number): void {
  qc.removeQueries({ queryKey: messageKeys.chat(sessionId) });
}
