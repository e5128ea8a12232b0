import { SANDBOX_PATHS, type SandboxEntry } from '@parley/protocol';
import type { SandboxEntryWithMedia } from './sandbox.repository.js';

/** An entry as the customer's page gets it: a retracted one keeps no content or media. */
export function toEntry(row: SandboxEntryWithMedia): SandboxEntry {
  const media = row.media_id !== null && row.deleted === 0;
  return {
    id: row.id,
    direction: row.direction,
    type: row.type,
    content: row.deleted === 1 ? '' : row.content,
    media_url: media ? `${SANDBOX_PATHS.media}/${row.id}` : null,
    file_name: media ? row.file_name : null,
    size: media ? row.size : null,
    duration_ms: media ? row.duration_ms : null,
    deleted: row.deleted === 1,
    blocked: row.blocked === 1,
    created_at: row.created_at,
  };
}
