import { randomBytes } from 'node:crypto';
import { ERROR_CODES, type AccountChannelFields, type WhatsappStatus } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import { AppError, invalidField, notFound } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { inTransaction } from '../../lib/tx.js';
import { accountsRepository } from '../../modules/accounts/accounts.repository.js';
import { switchChannel } from '../../modules/accounts/accounts.service.js';
import type {
  ChannelCredentials,
  SetChannelInput,
} from '../../modules/accounts/channel-credentials.js';
import type { Actor, AuditService } from '../../modules/admin/audit.service.js';
import { GraphApi, GraphApiError } from './graph-api.js';
import { whatsappRepository } from './whatsapp.repository.js';

/** Where Meta posts an account's webhooks (and verifies it): one URL per bound number. */
export const webhookPath = (phoneNumberId: string) => `/v1/whatsapp/webhook/${phoneNumberId}`;

interface NumberDetails {
  id: string;
  verified_name?: string;
  display_phone_number?: string;
  quality_rating?: string;
}

/**
 * Binding phone accounts to WhatsApp Business numbers (the admin console's setChannel): the
 * credentials are checked with the Graph API (GET /{phone-number-id}) before anything is
 * stored; the access token and app secret are never answered nor logged (the audit log keeps
 * the number's IDs and name only).
 */
export class WhatsappNumbersService implements ChannelCredentials {
  readonly channel = 'whatsapp' as const;

  constructor(
    private readonly db: Db,
    private readonly graphUrl: string,
    private readonly audit: AuditService,
  ) {}

  /**
   * The account list's `whatsapp` field: the number's name and its token's state with the last
   * Graph API error (the binding's details are in its own dialog: whatsappStatus).
   */
  async accountFields(
    sendPhones: readonly string[],
  ): Promise<Map<string, Partial<AccountChannelFields>>> {
    const numbers = await whatsappRepository.findByPhones(this.db, sendPhones);
    return new Map(
      numbers.map((n) => [
        n.send_phone,
        {
          whatsapp: {
            verified_name: n.verified_name,
            state: n.state,
            last_error: n.last_error,
            last_error_at: n.last_error_at === null ? null : Number(n.last_error_at),
          },
        },
      ]),
    );
  }

  async bind(sendPhone: string, input: SetChannelInput, actor: Actor): Promise<void> {
    if (input.channel !== 'whatsapp') throw new Error('not a whatsapp request');
    const account = await accountsRepository.findByPhone(this.db, sendPhone);
    if (!account) throw notFound();
    const details = await this.check(input.phone_number_id, input.access_token);
    const other = await whatsappRepository.findByNumberId(this.db, input.phone_number_id);
    if (other && other.send_phone !== sendPhone) {
      throw new AppError(ERROR_CODES.DATA_EXISTS, undefined, { bound_to: other.send_phone });
    }
    const kept = await whatsappRepository.findByPhone(this.db, sendPhone);
    // Rebinding the same number keeps the verify token already pasted into Meta's settings.
    const verifyToken =
      kept?.phone_number_id === input.phone_number_id
        ? kept.verify_token
        : randomBytes(24).toString('base64url');
    const named = {
      phone_number_id: input.phone_number_id,
      waba_id: input.waba_id,
      verified_name: details.verified_name ?? '',
    };
    try {
      await inTransaction(this.db, async (trx) => {
        await whatsappRepository.upsert(trx, {
          send_phone: sendPhone,
          phone_number_id: input.phone_number_id,
          waba_id: input.waba_id,
          access_token: input.access_token,
          app_secret: input.app_secret,
          verify_token: verifyToken,
          verified_name: details.verified_name ?? '',
          display_phone_number: details.display_phone_number ?? '',
          quality_rating: details.quality_rating ?? 'UNKNOWN',
          created_at: Date.now(),
        });
        await switchChannel(trx, this.audit, {
          account,
          channel: 'whatsapp',
          actor,
          after: named,
        });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError(ERROR_CODES.DATA_EXISTS);
      throw err;
    }
  }

  /** GET /{phone-number-id} with the token: the number's details, or a refusal on the field. */
  private async check(phoneNumberId: string, token: string): Promise<NumberDetails> {
    try {
      const details = await new GraphApi(this.graphUrl, token, 15_000).get<NumberDetails>(
        [phoneNumberId],
        { fields: 'verified_name,display_phone_number,quality_rating' },
      );
      if (!details || String(details.id) !== phoneNumberId) {
        throw invalidField('phone_number_id', 'the Graph API answered for another number');
      }
      return details;
    } catch (err) {
      if (err instanceof GraphApiError && !err.retryable) {
        const field = err.tokenInvalid ? 'access_token' : 'phone_number_id';
        throw invalidField(field, `the Graph API refused it (${err.code} ${err.graphMessage})`);
      }
      if (err instanceof AppError) throw err;
      const reason = err instanceof GraphApiError ? err.message : (err as Error).message;
      throw new AppError(
        ERROR_CODES.SERVICE_ERROR,
        `the Graph API could not be reached: ${reason}`,
      );
    }
  }

  async forget(trx: Db, sendPhone: string): Promise<Record<string, unknown> | null> {
    const number = await whatsappRepository.findByPhone(trx, sendPhone);
    if (!number) return null;
    await whatsappRepository.remove(trx, sendPhone);
    return { phone_number_id: number.phone_number_id, verified_name: number.verified_name };
  }

  /** The console's view of the binding (never a secret); null when none. */
  async status(sendPhone: string, origin: string): Promise<WhatsappStatus | null> {
    const n = await whatsappRepository.findByPhone(this.db, sendPhone);
    if (!n) return null;
    return {
      phone_number_id: n.phone_number_id,
      waba_id: n.waba_id,
      webhook_url: `${origin}${webhookPath(n.phone_number_id)}`,
      verify_token: n.verify_token,
      verified_name: n.verified_name,
      display_phone_number: n.display_phone_number,
      quality_rating: n.quality_rating,
      state: n.state,
      last_error: n.last_error,
      last_error_at: n.last_error_at === null ? null : Number(n.last_error_at),
      bound_at: Number(n.created_at),
    };
  }
}
