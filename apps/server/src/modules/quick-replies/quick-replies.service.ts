import type { CallRequest, CallResponse } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { MediaRow, QuickReplyRow } from '../../db/schema.js';
import { invalidField, notFound } from '../../lib/app-error.js';
import { mediaRepository } from '../media/media.repository.js';
import type { MediaService } from '../media/media.service.js';
import { toQuickReply } from './quick-replies.presenter.js';
import { quickRepliesRepository } from './quick-replies.repository.js';

type DoType = CallRequest<'/v1/seat/chat/quickReplyDoType'>;
type Fields = Extract<DoType, { type: 'add' | 'edit' }>;

/**
 * A seat's quick replies and materials. An image or audio material needs its upload
 * (`media_id`, else 100001): this seat's media (else 400001) of the same kind (else 100001).
 */
export class QuickRepliesService {
  constructor(
    private readonly db: Db,
    private readonly media: MediaService,
  ) {}

  async list(seatId: number): Promise<CallResponse<'/v1/seat/chat/quickReplyList'>> {
    const rows = await quickRepliesRepository.listBySeat(this.db, seatId);
    // One query for every material's media, not one per row.
    const ids = [...new Set(rows.flatMap((r) => (r.media_id ? [r.media_id] : [])))];
    const media = new Map(
      (await mediaRepository.findManyForSeat(this.db, seatId, ids)).map((m) => [m.media_id, m]),
    );
    return {
      list: rows.map((row) => this.present(row, seatId, media.get(row.media_id ?? ''))),
    };
  }

  async doType(
    seatId: number,
    input: DoType,
  ): Promise<CallResponse<'/v1/seat/chat/quickReplyDoType'>> {
    switch (input.type) {
      case 'add': {
        const { fields, media } = await this.fields(seatId, input);
        const row = await quickRepliesRepository.insert(this.db, seatId, fields, Date.now());
        return { item: this.present(row, seatId, media), id: row.id };
      }
      case 'edit': {
        if (input.kind !== 'text' && !input.media_id) {
          throw invalidField('media_id', 'required');
        }
        if (!(await quickRepliesRepository.findForSeat(this.db, seatId, input.id))) {
          throw notFound();
        }
        const { fields, media } = await this.fields(seatId, input);
        const row = await quickRepliesRepository.update(
          this.db,
          seatId,
          input.id,
          fields,
          Date.now(),
        );
        if (!row) throw notFound();
        return { item: this.present(row, seatId, media), id: row.id };
      }
      case 'del': {
        const deleted = await quickRepliesRepository.delete(this.db, seatId, input.id);
        if (deleted === 0) throw notFound();
        return { item: null, id: input.id };
      }
    }
  }

  private present(row: QuickReplyRow, seatId: number, media: MediaRow | undefined) {
    return toQuickReply(row, media ? this.media.present(media, seatId) : null);
  }

  private async fields(seatId: number, input: Fields) {
    const base = { kind: input.kind, name: input.name, content: input.content };
    if (input.kind === 'text') return { fields: { ...base, media_id: null }, media: undefined };
    if (!input.media_id) throw invalidField('media_id', 'required');
    // An image material takes an image upload, an audio material an audio one.
    const media = await this.media.ownedFor(this.db, seatId, input.media_id, [input.kind]);
    return { fields: { ...base, media_id: media.media_id }, media };
  }
}
