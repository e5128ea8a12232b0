import { z } from 'zod';
import { id, label, labelColor, labelName } from '../entities.js';
import { CHAT_LABELS_MAX } from '../limits.js';

/**
 * Labels (issue 35): the owner defines them (a name and a colour of LABEL_COLORS) in the admin
 * console; members put them on customers (one chat's customer). A seat labels a chat only if it
 * may see it: its own chat, or, on a team account, one waiting in the queue of a team it is a
 * member of; any other chat answers 400001, as one that does not exist.
 */

/** The workspace's labels, by name. */
export const labelListRequest = z.object({});
export const labelListResponse = z.object({ labels: z.array(label) });

/** The whole set of a chat's labels (setting the set it has changes nothing). */
export const labelSetRequest = z.object({
  session_id: id,
  label_ids: z.array(id).max(CHAT_LABELS_MAX),
});
export const labelSetResponse = z.object({ session_id: id, labels: z.array(label) });

/** A label as the owner's console lists it: with the number of chats it is on. */
export const adminLabel = label.extend({ chats: z.number().int().nonnegative() });
export type AdminLabel = z.infer<typeof adminLabel>;

export const adminLabelsListRequest = z.object({});
export const adminLabelsListResponse = z.object({ labels: z.array(adminLabel) });

export const adminLabelsCreateRequest = z.object({ name: labelName, color: labelColor });
export const adminLabelsCreateResponse = z.object({ label: adminLabel });

export const adminLabelsUpdateRequest = z.object({
  label_id: id,
  name: labelName.optional(),
  color: labelColor.optional(),
});
export const adminLabelsUpdateResponse = z.object({ label: adminLabel });

export const adminLabelsDeleteRequest = z.object({ label_id: id });
export const adminLabelsDeleteResponse = z.object({ label_id: id });
