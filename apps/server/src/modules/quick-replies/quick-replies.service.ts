import { ERROR_CODES, type CallRequest, type CallResponse } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import { AppError, invalidField, notFound } from '../../lib/app-error.js';
import { toQuickReply } from './quick-replies.presenter.js';
import { quickRepliesRepository } from './quick-replies.repository.js';

type DoType = CallRequest<'/v1/seat/chat/quickReplyDoType'>;
type Fields = Extract<DoType, { type: 'add' | 'edit' }>;

/**
 * A seat's quick replies and materials. Text ones now; an image or audio one needs its upload
 * (`media_id`, else 100001) and answers 501001 until media uploads land.
 */
export class QuickRepliesService {
  constructor(private readonly db: Db) {}

  async list(seatId: number): Promise<CallResponse<'/v1/seat/chat/quickReplyList'>> {
    const rows = await quickRepliesRepository.listBySeat(this.db, seatId);
    return { list: rows.map(toQuickReply) };
  }

  async doType(
    seatId: number,
    input: DoType,
  ): Promise<CallResponse<'/v1/seat/chat/quickReplyDoType'>> {
    switch (input.type) {
      case 'add': {
        const fields = this.fields(input);
        const row = await quickRepliesRepository.insert(this.db, seatId, fields, Date.now());
        return { item: toQuickReply(row), id: row.id };
      }
      case 'edit': {
        if (input.kind !== 'text' && !input.media_id) {
          throw invalidField('media_id', 'required');
        }
        if (!(await quickRepliesRepository.findForSeat(this.db, seatId, input.id))) {
          throw notFound();
        }
        const fields = this.fields(input);
        const row = await quickRepliesRepository.update(
          this.db,
          seatId,
          input.id,
          fields,
          Date.now(),
        );
        if (!row) throw notFound();
        return { item: toQuickReply(row), id: row.id };
      }
      case 'del': {
        const deleted = await quickRepliesRepository.delete(this.db, seatId, input.id);
        if (deleted === 0) throw notFound();
        return { item: null, id: input.id };
      }
    }
  }

  private fields(input: Fields) {
    if (input.kind !== 'text') {
      if (!input.media_id) throw invalidField('media_id', 'required');
      throw new AppError(ERROR_CODES.NOT_IMPLEMENTED);
    }
    return { kind: input.kind, name: input.name, content: input.content, media_id: null };
  }
}
