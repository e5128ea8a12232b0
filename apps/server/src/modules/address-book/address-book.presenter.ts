import { BUILT_IN_GROUP_NAMES, type AddressBookEntry } from '@parley/protocol';
import type { GroupRow, SessionRow } from '../../db/schema.js';
import type { MediaUrls } from '../media/media-urls.js';
import { toSessionItem } from '../sessions/sessions.presenter.js';

export type BookRow = SessionRow & { group_name: string; group_type: GroupRow['type'] };

export function toAddressBookEntry(
  row: BookRow,
  recentSince: number,
  urls: MediaUrls,
): AddressBookEntry {
  return {
    ...toSessionItem(row, recentSince, urls),
    group_name: row.group_type === 'custom' ? row.group_name : BUILT_IN_GROUP_NAMES[row.group_type],
    group_type: row.group_type,
  };
}
