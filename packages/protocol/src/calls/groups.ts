import { z } from 'zod';
import { group, groupName, id, ID_MAX } from '../entities.js';

export const replyFilter = z.union([z.literal(0), z.literal(1)]);

export const getGroupListRequest = z.object({
  /** Sent as 1 by the original client; the seat always comes from the token. */
  seat_id: z.number().int().nonnegative().max(ID_MAX).optional(),
  /** 0 = all chats, 1 = waiting for a reply. */
  reply: replyFilter.default(0),
});
export const getGroupListResponse = z.object({
  group_list: z.array(group),
  /** Unread total of user_time_type 1 (active in the last 24 hours). */
  seat_one_seat_msg_count: z.number().int().nonnegative(),
  /** Unread total of user_time_type 2 (earlier). */
  seat_two_seat_msg_count: z.number().int().nonnegative(),
  un_read_count: z.number().int().nonnegative(),
});

/** Create, rename or delete a custom group, chosen by `type`. */
export const doGroupRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('add'), group_name: groupName }),
  z.object({ type: z.literal('edit'), group_id: id, group_name: groupName }),
  z.object({ type: z.literal('del'), group_id: id }),
]);
/** The created or renamed group; for a delete, the group the chats moved to. */
export const doGroupResponse = z.object({ group, moved_sessions: z.number().int().nonnegative() });

export const oneClickReadRequest = z.object({
  /** Only this group's chats; all the seat's chats when absent. */
  group_id: id.optional(),
});
export const oneClickReadResponse = z.object({
  /** Unread messages cleared. */
  cleared: z.number().int().nonnegative(),
});
