import type { Kysely, Migration } from 'kysely';

const MEDIA_TYPES = ['image', 'audio', 'video', 'file'] as const;

/**
 * Chat previews used to store an English placeholder ("[file]", "[audio]") for a media message
 * without a caption, which the console then showed beside its own translated label. A preview
 * now holds only the message's own words (a file's name, a caption, or nothing): the stored
 * placeholders are recomputed from each chat's newest shown message. Self-contained on purpose
 * (a migration must not change when the code it once used does).
 */
export function typedPreviewsMigration(): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration sees the schema of its day, not today's types
    async up(db: Kysely<any>) {
      for (const type of MEDIA_TYPES) {
        const sessions = (await db
          .selectFrom('sessions')
          .select('id')
          .where('last_type', '=', type)
          .where('last_preview', '=', `[${type}]`)
          .execute()) as { id: number }[];
        for (const { id } of sessions) {
          const latest = (await db
            .selectFrom('messages')
            .select(['type', 'content', 'media'])
            .where('session_id', '=', id)
            .where('deleted_for_me', '=', 0)
            .where('deleted_for_all', '=', 0)
            .orderBy('id', 'desc')
            .limit(1)
            .executeTakeFirst()) as
            { type: string; content: string; media: string | null } | undefined;
          const fileName =
            latest?.type === 'file' && latest.media
              ? ((JSON.parse(latest.media) as { file_name?: string }).file_name ?? '')
              : '';
          const preview = (fileName || latest?.content || '').replace(/\s+/g, ' ').trim();
          await db
            .updateTable('sessions')
            .set({ last_preview: preview.slice(0, 100) })
            .where('id', '=', id)
            .execute();
        }
      }
    },
    async down() {
      // Nothing to undo: the old code showed the recomputed previews as they are.
    },
  };
}
