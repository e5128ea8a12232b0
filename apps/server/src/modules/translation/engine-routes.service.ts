import {
  ERROR_CODES,
  baseLanguage,
  type AdminCallRequest,
  type AdminCallResponse,
  type EngineRoute,
  type TranslationLanguageCode,
} from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { Selectable } from 'kysely';
import type { EngineRoutesTable } from '../../db/schema.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { inTransaction } from '../../lib/tx.js';
import type { SourceLanguage, TranslationProvider } from '../../translation/provider.js';
import type { Actor, AuditService } from '../admin/audit.service.js';
import { glossaryRepository } from './glossary.repository.js';

function present(row: Selectable<EngineRoutesTable>): EngineRoute {
  return {
    route_id: row.id,
    source_lang: row.source_lang as EngineRoute['source_lang'],
    target_lang: row.target_lang as EngineRoute['target_lang'],
    engines: row.engines.split(','),
  };
}

/**
 * The engines the owner chose per language pair (base languages; `auto`: texts whose language
 * the engine detects). A pair without a choice, or whose chosen engines are all gone from the
 * configuration, is served by every configured engine in PARLEY_TRANSLATION_PROVIDERS order.
 */
export class EngineRoutesService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly providers: TranslationProvider[],
  ) {}

  /** The engines that serve a pair, in fallback order. */
  async providersFor(
    source: SourceLanguage,
    target: TranslationLanguageCode,
  ): Promise<TranslationProvider[]> {
    const from = source === 'auto' ? 'auto' : baseLanguage(source);
    const route = await glossaryRepository.route(this.db, from, baseLanguage(target));
    if (!route) return this.providers;
    const chosen = route.engines
      .split(',')
      .map((name) => this.providers.find((p) => p.name === name))
      .filter((p): p is TranslationProvider => p !== undefined);
    return chosen.length > 0 ? chosen : this.providers;
  }

  async list(): Promise<AdminCallResponse<'/v1/admin/engine_routes/list'>> {
    const rows = await glossaryRepository.routes(this.db);
    return { engines: this.providers.map((p) => p.name), list: rows.map(present) };
  }

  async set(
    input: AdminCallRequest<'/v1/admin/engine_routes/set'>,
    actor: Actor,
  ): Promise<AdminCallResponse<'/v1/admin/engine_routes/set'>> {
    const configured = this.providers.map((p) => p.name);
    if (input.engines.some((e) => !configured.includes(e))) {
      throw new AppError(ERROR_CODES.TRANSLATION_ENGINE_NOT_CONFIGURED, undefined, {
        engines: configured,
      });
    }
    const source = input.source_lang === 'auto' ? 'auto' : baseLanguage(input.source_lang);
    const target = baseLanguage(input.target_lang);
    return inTransaction(this.db, async (trx) => {
      const before = await glossaryRepository.route(trx, source, target);
      const row = await glossaryRepository.upsertRoute(trx, {
        source_lang: source,
        target_lang: target,
        engines: input.engines.join(','),
        updated_at: Date.now(),
      });
      const route = present(row);
      await this.audit.record(
        trx,
        actor,
        'engine_route.set',
        'engine_route',
        row.id,
        `${source}>${target}`,
        before ? present(before) : null,
        route,
      );
      return route;
    });
  }

  async remove(
    routeId: number,
    actor: Actor,
  ): Promise<AdminCallResponse<'/v1/admin/engine_routes/delete'>> {
    return inTransaction(this.db, async (trx) => {
      const row = await glossaryRepository.deleteRoute(trx, routeId);
      if (!row) throw notFound();
      await this.audit.record(
        trx,
        actor,
        'engine_route.delete',
        'engine_route',
        row.id,
        `${row.source_lang}>${row.target_lang}`,
        present(row),
        null,
      );
      return {};
    });
  }
}
