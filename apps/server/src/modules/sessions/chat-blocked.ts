/** What "this chat is blocked" is read from: the chat's own flag and its group's type. */
export interface BlockedColumns<T> {
  blocked: T;
  group_type: T;
}

/**
 * "Is this chat blocked", written once: its flag is set, or it sits in the Blocked group. The
 * TypeScript test (a chat read on its own) and the same test in SQL over a statement's columns
 * (the batch statements of sends and of customers' messages). An absent chat is not blocked.
 */
export const CHAT_BLOCKED = {
  is: (c: BlockedColumns<number | string | null | undefined>): boolean =>
    c.blocked === 1 || c.group_type === 'blocked',
  sql: (c: BlockedColumns<string>): string => `(${c.blocked} = 1 or ${c.group_type} = 'blocked')`,
};
