import { ERROR_CODES, type CallResponse, type WhatsappTemplate } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import { AppError, forbidden } from '../../lib/app-error.js';
import { accountsRepository } from '../../modules/accounts/accounts.repository.js';
import { GraphApi, GraphApiError } from './graph-api.js';
import { markTokenRefused } from './number-state.js';
import { templateOf, type GraphTemplate } from './whatsapp-templates.js';
import { whatsappRepository } from './whatsapp.repository.js';

/** Pages of 100 templates read at most (a business has up to 250 templates per account). */
const TEMPLATE_PAGES = 10;

/**
 * The number's approved templates listed from the Graph API (GET /{waba-id}/message_templates):
 * what goes past a chat's reply window (the chat's `can_reply` and `reply_until`, generic) and
 * as addSession's greeting.
 */
export class WhatsappTemplatesService {
  constructor(
    private readonly db: Db,
    private readonly graphUrl: string,
  ) {}

  /** The approved templates of one of the seat's accounts (null: not on WhatsApp). */
  async forAccount(
    seatId: number,
    sendPhone: string,
  ): Promise<CallResponse<'/v1/seat/wa/templates'>> {
    const account = await accountsRepository.findByPhone(this.db, sendPhone);
    if (!account || account.seat_id !== seatId) throw forbidden();
    const number =
      account.channel === 'whatsapp'
        ? await whatsappRepository.findByPhone(this.db, sendPhone)
        : undefined;
    if (!number) return null;
    return { templates: await this.templates(number) };
  }

  /**
   * The approved templates of the WhatsApp Business Account, with their parts, every page of
   * them (Graph cursor paging, `after`, up to TEMPLATE_PAGES pages of 100). The Graph API
   * unreachable or refusing (an expired token, ...) answers 500005 "Server busy" with
   * `data.reason` `whatsapp_unavailable`: nothing can be checked, nothing is stored; a token it
   * refused shows on the account, as when a send meets it.
   */
  async templates(number: {
    send_phone: string;
    waba_id: string;
    access_token: string;
  }): Promise<WhatsappTemplate[]> {
    const api = new GraphApi(this.graphUrl, number.access_token, 15_000);
    const listed: GraphTemplate[] = [];
    let after: string | undefined;
    try {
      for (let page = 0; page < TEMPLATE_PAGES; page++) {
        const answer = await api.get<{
          data?: GraphTemplate[];
          paging?: { cursors?: { after?: string }; next?: string };
        }>([number.waba_id, 'message_templates'], {
          fields: 'name,language,status,category,components',
          limit: '100',
          ...(after ? { after } : {}),
        });
        listed.push(...(answer?.data ?? []));
        // Graph gives `next` only while there is a page after this one.
        after = answer?.paging?.next ? answer.paging.cursors?.after : undefined;
        if (!after) break;
      }
    } catch (err) {
      await markTokenRefused(this.db, number.send_phone, err);
      const error = err instanceof GraphApiError ? `WhatsApp ${err.code}` : 'WhatsApp unreachable';
      throw new AppError(ERROR_CODES.SERVER_BUSY, undefined, {
        reason: 'whatsapp_unavailable',
        error,
      });
    }
    return listed.flatMap((t) => templateOf(t) ?? []);
  }
}
