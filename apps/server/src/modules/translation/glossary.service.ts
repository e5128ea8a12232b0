import {
  ERROR_CODES,
  GLOSSARY_MAX,
  GLOSSARY_PATTERNS_MAX,
  baseLanguage,
  type AdminCallRequest,
  type AdminCallResponse,
  type GlossaryEntry,
  type TranslationLanguageCode,
} from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { Selectable } from 'kysely';
import type { GlossaryEntriesTable } from '../../db/schema.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { inTransaction } from '../../lib/tx.js';
import { glossaryMatcher, type GlossaryMatcher } from '../../translation/glossary.js';
import {
  TranslationProviderError,
  type GlossaryDictionary,
  type TranslationProvider,
} from '../../translation/provider.js';
import type { SourceLanguage } from '../../translation/provider.js';
import { idCursor, type Actor, type AuditService } from '../admin/audit.service.js';
import { glossaryRepository } from './glossary.repository.js';

type Row = Awaited<ReturnType<typeof glossaryRepository.all>>[number];
type EntryInput = AdminCallRequest<'/v1/admin/glossary/add'>;

/** An engine's glossary that could not be made is asked again after this. */
const ENGINE_RETRY_MS = 60_000;
/** Compare-and-set rounds of one sync (each lost round means another instance stored one). */
const SYNC_ATTEMPTS = 3;

export interface TranslationLog {
  warn(obj: object, msg: string): void;
}

/** The glossary at one version: what a translation applies. */
export class GlossaryView {
  private readonly matchers = new Map<string, GlossaryMatcher | null>();
  constructor(
    readonly version: number,
    private readonly rows: Row[],
  ) {}

  private fixedFor(source: SourceLanguage, target: TranslationLanguageCode) {
    const t = baseLanguage(target);
    const s = source === 'auto' ? null : baseLanguage(source);
    // A detected source: every fixed translation into the target (the terms are the owner's).
    return this.rows.filter(
      (r) => r.kind === 'fixed' && r.target_lang === t && (s === null || r.source_lang === s),
    );
  }

  /**
   * What is cut out of a text: names and patterns always; with `fixed`, the pair's fixed
   * translations too (they stand substituted). Without, the engine applies them itself.
   */
  matcher(source: SourceLanguage, target: TranslationLanguageCode, fixed: boolean) {
    const key = `${source}>${target}>${fixed}`;
    if (!this.matchers.has(key)) {
      const rows = this.rows.filter((r) => r.kind !== 'fixed');
      if (fixed) rows.push(...this.fixedFor(source, target));
      this.matchers.set(key, glossaryMatcher(rows));
    }
    return this.matchers.get(key)!;
  }

  /** The pair has fixed translations an engine's own glossary would hold. */
  hasFixed(source: SourceLanguage, target: TranslationLanguageCode) {
    return source !== 'auto' && this.fixedFor(source, target).length > 0;
  }

  /** Fixed translations by pair, as an engine's glossary holds them. */
  dictionaries(): GlossaryDictionary[] {
    const byPair = new Map<string, GlossaryDictionary>();
    for (const r of this.rows) {
      if (r.kind !== 'fixed') continue;
      const key = `${r.source_lang}>${r.target_lang}`;
      const d = byPair.get(key) ?? { source: r.source_lang, target: r.target_lang, entries: [] };
      d.entries.push([r.term, r.translation ?? r.term]);
      byPair.set(key, d);
    }
    return [...byPair.values()];
  }
}

function present(row: Selectable<GlossaryEntriesTable>): GlossaryEntry {
  return {
    entry_id: row.id,
    kind: row.kind,
    term: row.term,
    translation: row.translation,
    source_lang: (row.source_lang || null) as GlossaryEntry['source_lang'],
    target_lang: (row.target_lang || null) as GlossaryEntry['target_lang'],
    created_at: Number(row.created_at),
  };
}

function rowOf(input: EntryInput, now: number) {
  return {
    kind: input.kind,
    term: input.term,
    term_key: input.term.toLowerCase(),
    translation: input.kind === 'fixed' ? input.translation! : null,
    source_lang: input.kind === 'fixed' ? baseLanguage(input.source_lang!) : '',
    target_lang: input.kind === 'fixed' ? baseLanguage(input.target_lang!) : '',
    created_at: now,
  };
}

const full = () => new AppError(ERROR_CODES.OPERATION_LIMIT);

/**
 * The workspace's glossary: the owner's list (audited; each change raises its version) and the
 * view translation applies, loaded again only when the version moved (one small read per
 * translation tells, so a change made through any instance applies to the next translation).
 */
export class GlossaryService {
  private view: GlossaryView | null = null;
  private loading: Promise<GlossaryView> | null = null;
  private engineGlossary: { version: number; id: string | null } | null = null;
  private engineFailedAt: { version: number; at: number } | null = null;
  private syncing: Promise<string | null> | null = null;
  private readonly warned = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly log: TranslationLog = { warn: () => {} },
  ) {}

  /** Logs a problem once per engine, kind and glossary version. */
  warnOnce(key: string, obj: object, msg: string) {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.log.warn(obj, msg);
  }

  async current(): Promise<GlossaryView> {
    const { version } = await glossaryRepository.state(this.db);
    const v = Number(version);
    if (this.view?.version === v) return this.view;
    this.loading ??= (async () => {
      try {
        // Entries and version read together: the view is never newer or older than its rows.
        return await inTransaction(this.db, async (trx) => {
          const state = await glossaryRepository.state(trx);
          return new GlossaryView(Number(state.version), await glossaryRepository.all(trx));
        });
      } finally {
        this.loading = null;
      }
    })();
    const view = await this.loading;
    if (!this.view || view.version > this.view.version) this.view = view;
    return view;
  }

  /**
   * The id of the engine's own glossary holding this version's fixed translations, made or
   * edited first when it is behind; null when it cannot be (said once in the log): the fixed
   * translations are then substituted around the engine as for the others.
   */
  async engineGlossaryId(
    provider: TranslationProvider,
    view: GlossaryView,
    signal: AbortSignal,
  ): Promise<string | null> {
    if (!provider.glossary) return null;
    if (this.engineGlossary?.version === view.version) return this.engineGlossary.id;
    const failed = this.engineFailedAt;
    if (failed?.version === view.version && Date.now() - failed.at < ENGINE_RETRY_MS) return null;
    this.syncing ??= this.syncEngineGlossary(provider, view, signal).finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  /**
   * Several instances may find the engine's glossary behind at once. Each version gets a new
   * glossary on the engine (never edited, so an id always holds one version's dictionaries),
   * stored by a compare-and-set on what was read: the instance that stores it deletes the one
   * it replaces; one that lost deletes its own and takes what was stored. Never an older
   * version over a newer one.
   */
  private async syncEngineGlossary(
    provider: TranslationProvider,
    view: GlossaryView,
    signal: AbortSignal,
  ): Promise<string | null> {
    const engine = provider.glossary!;
    for (let attempt = 0; attempt < SYNC_ATTEMPTS; attempt++) {
      const row = await glossaryRepository.state(this.db);
      const stored = row.deepl_state
        ? (JSON.parse(row.deepl_state) as { version: number }).version
        : null;
      if (stored === view.version) {
        this.engineGlossary = { version: view.version, id: row.deepl_glossary_id };
        return row.deepl_glossary_id;
      }
      // Another instance is at a newer version: this one reads it at its next translation.
      if (stored !== null && stored > view.version) return null;
      let made: string | null = null;
      try {
        const dictionaries = view.dictionaries();
        if (dictionaries.length > 0) {
          made = await engine.create(`parley glossary v${view.version}`, dictionaries, signal);
        }
      } catch (err) {
        if (!(err instanceof TranslationProviderError)) throw err;
        this.engineFailedAt = { version: view.version, at: Date.now() };
        this.warnOnce(
          `${provider.name}:sync:${view.version}`,
          { engine: provider.name, reason: err.reason, err: err.message, version: view.version },
          'engine glossary could not be updated: its fixed translations are substituted instead',
        );
        return null;
      }
      const swapped = await glossaryRepository.swapDeeplState(
        this.db,
        { id: row.deepl_glossary_id, state: row.deepl_state },
        { id: made, state: JSON.stringify({ version: view.version }) },
      );
      if (swapped) {
        this.engineGlossary = { version: view.version, id: made };
        if (row.deepl_glossary_id) await this.dropEngineGlossary(provider, row.deepl_glossary_id);
        return made;
      }
      if (made) await this.dropEngineGlossary(provider, made);
    }
    return null;
  }

  /** A glossary no instance will use; one that cannot be deleted now is said in the log. */
  private async dropEngineGlossary(provider: TranslationProvider, id: string) {
    try {
      await provider.glossary!.remove(id);
    } catch (err) {
      if (!(err instanceof TranslationProviderError)) throw err;
      this.log.warn(
        { engine: provider.name, reason: err.reason, err: err.message, glossary: id },
        'engine glossary could not be deleted: it is left on the engine',
      );
    }
  }

  /**
   * After the engine refused the glossary it was given: not tried again for this version.
   * Unless another instance has replaced (and deleted) it meanwhile: then nothing is said, and
   * the next translation reads the new one.
   */
  async engineRefused(
    provider: TranslationProvider,
    view: GlossaryView,
    glossaryId: string,
    err: Error,
  ) {
    const row = await glossaryRepository.state(this.db);
    if (row.deepl_glossary_id !== glossaryId) {
      this.engineGlossary = null;
      return;
    }
    this.engineGlossary = { version: view.version, id: null };
    this.warnOnce(
      `${provider.name}:refused:${view.version}`,
      { engine: provider.name, err: err.message, version: view.version },
      'engine refused the glossary: its fixed translations are substituted instead',
    );
  }

  // -------------------------------------------------------------------------------------------
  // The owner's calls

  async list(
    input: AdminCallRequest<'/v1/admin/glossary/list'>,
  ): Promise<AdminCallResponse<'/v1/admin/glossary/list'>> {
    const afterId = input.cursor ? decodeCursor(input.cursor, idCursor)[0] : null;
    const rows = await glossaryRepository.page(this.db, input.kind, afterId, input.page_size + 1);
    const page = rows.slice(0, input.page_size);
    const state = await glossaryRepository.state(this.db);
    return {
      list: page.map(present),
      total: await glossaryRepository.count(this.db, input.kind),
      next_cursor: rows.length > input.page_size ? encodeCursor([page[page.length - 1]!.id]) : null,
      version: Number(state.version),
      entries: await glossaryRepository.count(this.db),
      max_entries: GLOSSARY_MAX,
    };
  }

  async add(input: EntryInput, actor: Actor): Promise<AdminCallResponse<'/v1/admin/glossary/add'>> {
    return inTransaction(this.db, async (trx) => {
      // The version row first: its lock makes concurrent changes take turns (the count holds).
      const version = await glossaryRepository.bumpVersion(trx);
      if ((await glossaryRepository.count(trx)) >= GLOSSARY_MAX) throw full();
      if (
        input.kind === 'pattern' &&
        (await glossaryRepository.count(trx, 'pattern')) >= GLOSSARY_PATTERNS_MAX
      ) {
        throw full();
      }
      const row = await glossaryRepository.insert(trx, rowOf(input, Date.now()));
      if (!row) throw new AppError(ERROR_CODES.DATA_EXISTS);
      const entry = present(row);
      await this.audit.record(
        trx,
        actor,
        'glossary.add',
        'glossary',
        row.id,
        row.term,
        null,
        entry,
      );
      return { entry, version };
    });
  }

  async remove(
    entryId: number,
    actor: Actor,
  ): Promise<AdminCallResponse<'/v1/admin/glossary/delete'>> {
    return inTransaction(this.db, async (trx) => {
      const version = await glossaryRepository.bumpVersion(trx);
      const row = await glossaryRepository.delete(trx, entryId);
      if (!row) throw notFound();
      await this.audit.record(
        trx,
        actor,
        'glossary.delete',
        'glossary',
        row.id,
        row.term,
        present(row),
        null,
      );
      return { version };
    });
  }

  /** All or nothing: past GLOSSARY_MAX nothing is added (500003). */
  async import(
    entries: EntryInput[],
    actor: Actor,
  ): Promise<AdminCallResponse<'/v1/admin/glossary/import'>> {
    return inTransaction(this.db, async (trx) => {
      const version = await glossaryRepository.bumpVersion(trx);
      const now = Date.now();
      const rows = new Map<string, ReturnType<typeof rowOf>>();
      for (const e of entries) {
        const row = rowOf(e, now);
        rows.set([row.kind, row.term_key, row.source_lang, row.target_lang].join('\u0000'), row);
      }
      const have = await glossaryRepository.count(trx);
      if (have + rows.size > GLOSSARY_MAX) {
        // Some may be there already: count what would really be new before refusing.
        const known = new Set(
          (await glossaryRepository.all(trx)).map((r) =>
            [r.kind, r.term.toLowerCase(), r.source_lang, r.target_lang].join('\u0000'),
          ),
        );
        const fresh = [...rows.keys()].filter((k) => !known.has(k)).length;
        if (have + fresh > GLOSSARY_MAX) throw full();
      }
      const patterns = [...rows.values()].filter((r) => r.kind === 'pattern').length;
      if (
        patterns > 0 &&
        (await glossaryRepository.count(trx, 'pattern')) + patterns > GLOSSARY_PATTERNS_MAX
      ) {
        throw full();
      }
      const added = await glossaryRepository.insertMany(trx, [...rows.values()]);
      await this.audit.record(
        trx,
        actor,
        'glossary.import',
        'glossary',
        version,
        `${added} entries`,
        null,
        {
          added,
          skipped: entries.length - added,
        },
      );
      return { added, skipped: entries.length - added, version };
    });
  }
}
