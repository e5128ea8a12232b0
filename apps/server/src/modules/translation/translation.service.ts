import { createHash } from 'node:crypto';
import {
  baseLanguage,
  ERROR_CODES,
  OTHER_MESSAGES,
  type CallRequest,
  type CallResponse,
  type EngineOffer,
  type ErrorCode,
  type RoundTripFlag,
  type TranslationErrorData,
  type TranslationFailureReason,
  type TranslationLanguageCode,
} from '@parley/protocol';
import { inTransaction } from '../../lib/tx.js';
import type { SeatEvents } from '../events/seat-events.js';
import type { Db } from '../../db/database.js';
import type { TranslationMemoryTable } from '../../db/schema.js';
import { TRANSLATION_ENGINES } from '../../config.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { toListedCode } from '../../translation/languages.js';
import { reassemble, segment, translatableRuns, type Segment } from '../../translation/protect.js';
import { roundTripFlags } from '../../translation/round-trip.js';
import {
  GlossaryRefusedError,
  TranslationProviderError,
  type ProviderLanguages,
  type ProviderTranslation,
  type TranslationProvider,
} from '../../translation/provider.js';
import type { TranslationMeter } from '../../translation/metered-provider.js';
import { sessionsRepository } from '../sessions/sessions.repository.js';
import type { EngineRoutesService } from './engine-routes.service.js';
import type { GlossaryService, GlossaryView } from './glossary.service.js';
import { translationRepository } from './translation.repository.js';

/** All engines together must answer within this, well inside the client's 50 s time-out. */
const TRANSLATE_BUDGET_MS = 40_000;

type Attempt = TranslationErrorData['attempts'][number];
interface Translated {
  text: string;
  detected_source_language: TranslationLanguageCode | null;
  from_memory: boolean;
  engine: string | null;
}
export interface TranslationLog {
  warn(obj: object, msg: string): void;
}

function hashText(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The memory's key of a text: under a glossary (version above 0) its version is part of it, so
 * a change of the glossary takes effect at once and what was translated under an older one is
 * never served; without one the key is the text's own hash, as before glossaries.
 */
export function memoryHash(text: string, glossaryVersion: number): string {
  return hashText(glossaryVersion > 0 ? `glossary ${glossaryVersion}\u0000${text}` : text);
}

function failure(
  code: ErrorCode,
  message: TranslationErrorData['message'],
  reason: TranslationFailureReason,
  attempts: Attempt[],
  more: Partial<TranslationErrorData> = {},
): AppError {
  const data: TranslationErrorData = { message, reason, attempts, ...more };
  return new AppError(code, OTHER_MESSAGES[message], data);
}

/** Engines that translate most languages: what would serve a pair the others do not offer. */
const BROAD_ENGINES: readonly string[] = ['deepl', 'libretranslate'];

/** The broad engines this server does not use yet (in the order of TRANSLATION_ENGINES). */
function suggestedEngines(configured: readonly string[]): string[] {
  return TRANSLATION_ENGINES.filter((e) => BROAD_ENGINES.includes(e) && !configured.includes(e));
}

const offerOf = (engine: string, langs: ProviderLanguages): EngineOffer => ({
  engine,
  auto_detect: langs.autoDetect,
  sources: langs.sources,
  targets: langs.targets,
  pairs: langs.pairs,
});

type Pair = NonNullable<TranslationErrorData['pair']>;

/** Whether an engine's list offers source -> target (a variant stands for its base). */
function offersPair(
  langs: ProviderLanguages,
  source: TranslationLanguageCode,
  target: TranslationLanguageCode,
): boolean {
  const same = (a: string, b: string) => a === b || baseLanguage(a) === baseLanguage(b);
  if (langs.pairs) return langs.pairs.some((p) => same(p.source, source) && same(p.target, target));
  return langs.sources.some((s) => same(s, source)) && langs.targets.some((t) => same(t, target));
}

/** The language most of the text was written in (by length); null when none was detected. */
function dominant(items: { length: number; language: string | null }[]): string | null {
  const weight = new Map<string, number>();
  for (const { length, language } of items) {
    if (language) weight.set(language, (weight.get(language) ?? 0) + length);
  }
  let best: string | null = null;
  for (const [language, w] of weight) if (best === null || w > weight.get(best)!) best = language;
  return best;
}

/** Characters of one engine in one call: sent to it, or answered by the shared memory. */
/** The quarter hour of `translation_slots` (every zone's offset is a multiple of it). */
export const TRANSLATION_SLOT_MS = 15 * 60_000;

interface Usage {
  engine: string;
  characters: number;
  memory: number;
  glossaryHits?: number;
}

/** How a provider is asked: its runs, and its own glossary when it applies one. */
interface Plan {
  segments: Map<string, Segment[]>;
  glossaryId: string | null;
}

export class TranslationService {
  constructor(
    private readonly db: Db,
    private readonly providers: TranslationProvider[],
    private readonly log: TranslationLog = { warn: () => {} },
    private readonly events: SeatEvents,
    private readonly meter: TranslationMeter | null = null,
    private readonly glossary: GlossaryService | null = null,
    private readonly routes: EngineRoutesService | null = null,
  ) {}

  /**
   * Each text once, from the memory when an engine translated it before (for any seat), else
   * by the first engine that can; the engine gets only the runs between protected tokens,
   * all in one batch. An engine that fails hands the rest to the next one.
   */
  async translateTexts(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/translate/text_v2'>,
  ): Promise<CallResponse<'/v1/seat/chat/translate/text_v2'>> {
    const session =
      input.session_id === undefined
        ? null
        : await sessionsRepository.findForSeat(this.db, seatId, input.session_id);
    if (input.session_id !== undefined && !session) throw notFound();
    const source = input.source_lang;
    const target = input.target_lang;
    if (this.providers.length === 0) throw this.notConfigured({ source, target });
    const providers = (await this.routes?.providersFor(source, target)) ?? this.providers;
    const view = (await this.glossary?.current()) ?? null;
    const version = view?.version ?? 0;
    // Every term of the glossary cut out, fixed translations substituted: what every engine
    // but one with its own glossary is given.
    const substituted = view?.matcher(source, target, true) ?? null;
    const count = { hits: 0 };
    const segments = new Map<string, Segment[]>();
    const results = new Map<string, Translated>();
    for (const text of new Set(input.texts)) {
      const segs = segment(text, substituted, count);
      if (translatableRuns(segs).length === 0) {
        results.set(text, {
          text: reassemble(segs, []),
          detected_source_language: null,
          from_memory: false,
          engine: null,
        });
      } else segments.set(text, segs);
    }

    let pending = [...segments.keys()];
    let engine: string | null = null;
    const attempts: Attempt[] = [];
    const deadline = AbortSignal.timeout(TRANSLATE_BUDGET_MS);
    // Characters per engine, written once the call succeeds (a refused call changes nothing).
    const usage: Usage[] = [];
    for (const provider of providers) {
      if (pending.length === 0) break;
      const key = { engine: provider.name, source_lang: source, target_lang: target };
      const hashes = new Map(pending.map((t) => [memoryHash(t, version), t]));
      const hits = await translationRepository.lookup(this.db, key, [...hashes.keys()]);
      for (const hit of hits) {
        results.set(hashes.get(hit.text_hash)!, {
          text: hit.translated,
          detected_source_language: toListedCode(hit.detected_lang),
          from_memory: true,
          engine: provider.name,
        });
      }
      if (hits.length > 0) engine = provider.name;
      if (hits.length > 0) this.meter?.memoryHits(provider.name, hits.length);
      if (hits.length > 0) {
        const chars = hits.reduce((sum, h) => sum + hashes.get(h.text_hash)!.length, 0);
        usage.push({ engine: provider.name, characters: 0, memory: chars });
      }
      pending = pending.filter((t) => !results.has(t));
      if (pending.length === 0) break;
      try {
        const fresh = await this.translateWithGlossary(
          provider,
          pending,
          segments,
          view,
          input,
          deadline,
          usage,
        );
        const now = Date.now();
        const rows: TranslationMemoryTable[] = [];
        for (const [text, t] of fresh) {
          results.set(text, t);
          rows.push({
            ...key,
            text_hash: memoryHash(text, version),
            translated: t.text,
            detected_lang: t.detected_source_language,
            created_at: now,
          });
        }
        await translationRepository.store(this.db, rows);
        engine = provider.name;
        pending = [];
      } catch (err) {
        if (!(err instanceof TranslationProviderError)) throw err;
        this.log.warn(
          { engine: provider.name, reason: err.reason, err: err.message },
          'translation engine failed',
        );
        attempts.push({ engine: provider.name, reason: err.reason });
      }
    }
    if (pending.length > 0) throw await this.translateFailure(attempts, { source, target });
    if (count.hits > 0) {
      usage.push({
        engine: engine ?? providers[0]!.name,
        characters: 0,
        memory: 0,
        glossaryHits: count.hits,
      });
    }
    await this.recordUsage(seatId, usage);

    const translations = input.texts.map((t) => results.get(t)!);
    let customerLanguage = toListedCode(session?.customer_language);
    if (session && input.direction === 'incoming' && source === 'auto') {
      const detected = toListedCode(
        dominant(
          input.texts.map((t, i) => ({
            length: t.length,
            language: translations[i]!.detected_source_language,
          })),
        ),
      );
      if (detected && detected !== customerLanguage) {
        await translationRepository.setCustomerLanguage(this.db, seatId, session.id, detected);
        customerLanguage = detected;
      }
    }
    return {
      engine: engine ?? providers[0]!.name,
      translations,
      customer_language: customerLanguage,
    };
  }

  /**
   * Characters of this hour (the overview) and of this quarter hour and seat (the owner's
   * charts): sent to an engine, or answered by the shared memory.
   */
  private async recordUsage(seatId: number, usage: Usage[]) {
    const now = Date.now();
    const hour = Math.floor(now / 3_600_000) * 3_600_000;
    const slot = Math.floor(now / TRANSLATION_SLOT_MS) * TRANSLATION_SLOT_MS;
    for (const u of usage) {
      const counts = { engine: u.engine, characters: u.characters, memory_characters: u.memory };
      await translationRepository.addUsage(this.db, { hour, ...counts });
      await translationRepository.addSlotUsage(this.db, {
        slot,
        seat_id: seatId,
        ...counts,
        glossary_hits: u.glossaryHits ?? 0,
      });
    }
  }

  /**
   * An engine with its own glossary (DeepL) gets the pair's fixed translations through it, in
   * context, and only names and patterns cut out; when it cannot have it or refuses it (said
   * once in the log), it is asked again with the fixed translations substituted, as the others.
   */
  private async translateWithGlossary(
    provider: TranslationProvider,
    texts: string[],
    substituted: Map<string, Segment[]>,
    view: GlossaryView | null,
    input: CallRequest<'/v1/seat/chat/translate/text_v2'>,
    signal: AbortSignal,
    usage: Usage[],
  ): Promise<Map<string, Translated>> {
    const plain: Plan = { segments: substituted, glossaryId: null };
    if (!view || !provider.glossary || !view.hasFixed(input.source_lang, input.target_lang)) {
      return this.translateRuns(provider, texts, plain, input, signal, usage);
    }
    const glossaryId = await this.glossary!.engineGlossaryId(provider, view, signal);
    if (!glossaryId) return this.translateRuns(provider, texts, plain, input, signal, usage);
    const kept = view.matcher(input.source_lang, input.target_lang, false);
    const segments = new Map(texts.map((t) => [t, segment(t, kept)]));
    try {
      return await this.translateRuns(
        provider,
        texts,
        { segments, glossaryId },
        input,
        signal,
        usage,
      );
    } catch (err) {
      if (!(err instanceof GlossaryRefusedError)) throw err;
      await this.glossary!.engineRefused(provider, view, glossaryId, err);
      return this.translateRuns(provider, texts, plain, input, signal, usage);
    }
  }

  /** The pending texts' runs, de-duplicated, in one batch to one engine; texts rebuilt. */
  private async translateRuns(
    provider: TranslationProvider,
    texts: string[],
    plan: Plan,
    input: CallRequest<'/v1/seat/chat/translate/text_v2'>,
    signal: AbortSignal,
    usage: Usage[],
  ): Promise<Map<string, Translated>> {
    const { segments } = plan;
    // A text wholly kept under the engine's own glossary still goes through the pieces below.
    const runs = [...new Set(texts.flatMap((t) => translatableRuns(segments.get(t)!)))];
    const answers =
      runs.length === 0
        ? []
        : await provider.translate(
            runs,
            input.source_lang,
            input.target_lang,
            signal,
            plan.glossaryId ? { glossaryId: plan.glossaryId } : undefined,
          );
    if (answers.length !== runs.length) {
      throw new TranslationProviderError(provider.name, 'bad_response', 'answer count differs');
    }
    // Characters an engine translated (as engines bill them).
    usage.push({
      engine: provider.name,
      characters: runs.reduce((sum, r) => sum + r.length, 0),
      memory: 0,
    });
    const byRun = new Map<string, ProviderTranslation>(runs.map((r, i) => [r, answers[i]!]));
    const out = new Map<string, Translated>();
    for (const text of texts) {
      const segs = segments.get(text)!;
      const own = translatableRuns(segs);
      const translated = own.map((r) => byRun.get(r)!);
      out.set(text, {
        text: reassemble(
          segs,
          translated.map((t) => t.text),
        ),
        // Only a detection is reported; an explicit source was not detected.
        detected_source_language:
          input.source_lang === 'auto'
            ? toListedCode(
                dominant(
                  own.map((r, i) => ({
                    length: r.length,
                    language: translated[i]!.detectedSource,
                  })),
                ),
              )
            : null,
        from_memory: false,
        engine: provider.name,
      });
    }
    return out;
  }

  /**
   * 422001 when no engine could ever do it (each said it does not offer the pair), with what
   * each one does offer; else 500005 (try later).
   */
  private async translateFailure(attempts: Attempt[], pair: Pair): Promise<AppError> {
    const other = attempts.find((a) => a.reason !== 'unsupported_pair');
    if (other) return failure(ERROR_CODES.SERVER_BUSY, 'translationFailed', other.reason, attempts);
    const { offers } = await this.offers();
    return failure(
      ERROR_CODES.TRANSLATION_PAIR_UNSUPPORTED,
      'translationError',
      'unsupported_pair',
      attempts,
      { pair, offers, suggested_engines: suggestedEngines(this.providers.map((p) => p.name)) },
    );
  }

  private notConfigured(pair?: Pair): AppError {
    return failure(
      ERROR_CODES.TRANSLATION_NOT_CONFIGURED,
      'translationError',
      'not_configured',
      [],
      {
        ...(pair ? { pair } : {}),
        offers: [],
        suggested_engines: suggestedEngines([]),
      },
    );
  }

  /** What each engine offers, asked of all at once; one that cannot tell is left out. */
  private async offers(): Promise<{ offers: EngineOffer[]; attempts: Attempt[] }> {
    const signal = AbortSignal.timeout(TRANSLATE_BUDGET_MS);
    const answers = await Promise.allSettled(this.providers.map((p) => p.languages(signal)));
    const offers: EngineOffer[] = [];
    const attempts: Attempt[] = [];
    answers.forEach((answer, i) => {
      const engine = this.providers[i]!.name;
      if (answer.status === 'fulfilled') return offers.push(offerOf(engine, answer.value));
      const err: unknown = answer.reason;
      if (!(err instanceof TranslationProviderError)) throw err;
      this.log.warn({ engine, reason: err.reason, err: err.message }, 'language list failed');
      attempts.push({ engine, reason: err.reason });
    });
    return { offers, attempts };
  }

  /** The first engine, in fallback order, that can tell what it offers, and what each offers. */
  async languages(): Promise<CallResponse<'/v1/seat/chat/translate/languages'>> {
    if (this.providers.length === 0) throw this.notConfigured();
    const { offers, attempts } = await this.offers();
    const first = offers[0];
    if (!first) {
      throw failure(
        ERROR_CODES.SERVER_BUSY,
        'languageListFailed',
        attempts[0]?.reason ?? 'unavailable',
        attempts,
      );
    }
    return {
      engine: first.engine,
      engines: this.providers.map((p) => p.name),
      auto_detect: first.auto_detect,
      sources: first.sources,
      targets: first.targets,
      pairs: first.pairs,
      offers,
    };
  }

  /**
   * The reply translated (as text_v2 does for an outgoing text) and back into the operator's
   * language by one engine: another than the translation's when one offers the reverse pair
   * (then one engine's mistake is not simply undone by itself), else the same. The memory of
   * that engine answers a repeated text for nothing; else it gets one request, never a second:
   * when it fails the reply has no back-translation, and the translation is still good.
   */
  async roundTrip(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/translate/round_trip'>,
  ): Promise<CallResponse<'/v1/seat/chat/translate/round_trip'>> {
    const source = input.source_lang;
    const target = input.target_lang;
    const forward = await this.translateTexts(seatId, {
      session_id: input.session_id,
      texts: [input.text],
      source_lang: source,
      target_lang: target,
      direction: 'outgoing',
    });
    const sent = forward.translations[0]!;
    let back: Translated | null = null;
    let backFailure: TranslationFailureReason | null = null;
    if (sent.engine === null) {
      // Nothing was translated (emoji, numbers, links only): it reads the same both ways.
      back = { ...sent };
    } else {
      const provider = await this.backEngine(sent.engine, target, source);
      if (!provider) backFailure = 'unsupported_pair';
      else {
        try {
          back = await this.translateOne(seatId, provider, sent.text, target, source);
        } catch (err) {
          if (!(err instanceof TranslationProviderError)) throw err;
          this.log.warn(
            { engine: provider.name, reason: err.reason, err: err.message },
            'back-translation failed',
          );
          backFailure = err.reason;
        }
      }
    }
    const flags = roundTripFlags(input.text, sent.text, back?.text ?? null, source, target);
    const now = Date.now();
    await translationRepository.storeRoundTrip(this.db, {
      seat_id: seatId,
      original_hash: hashText(input.text),
      sent_hash: hashText(sent.text),
      engine: sent.engine,
      back_translation: back?.text ?? null,
      back_engine: back?.engine ?? null,
      flags: JSON.stringify(flags),
      created_at: now,
    });
    // The owner's back-translations are those an engine made: a preview repeated for the same
    // text (by any seat) is answered by the memory and counted as memory characters only.
    if (back?.engine && !back.from_memory) {
      await translationRepository.addRoundTripSlot(this.db, {
        slot: Math.floor(now / TRANSLATION_SLOT_MS) * TRANSLATION_SLOT_MS,
        seat_id: seatId,
        flagged: flags.length > 0 ? 1 : 0,
      });
    }
    const part = (t: Translated) => ({
      text: t.text,
      engine: t.engine,
      from_memory: t.from_memory,
    });
    return {
      translation: part(sent),
      back_translation: back ? part(back) : null,
      back_failure: backFailure,
      flags,
    };
  }

  /** A sent reply's round trip, found by its words and translation; none when it had none. */
  async sentRoundTrip(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/translate/sent_round_trip'>,
  ): Promise<CallResponse<'/v1/seat/chat/translate/sent_round_trip'>> {
    const message = await translationRepository.findSentReply(
      this.db,
      seatId,
      input.session_id,
      input.msg_id,
    );
    if (!message) throw notFound();
    const row =
      message.original_content === null
        ? undefined
        : await translationRepository.findRoundTrip(
            this.db,
            seatId,
            hashText(message.original_content),
            hashText(message.content),
          );
    return {
      msg_id: message.id,
      translation_engine: row?.engine ?? null,
      back_translation: row?.back_translation ?? null,
      engine: row?.back_engine ?? null,
      flags: row ? (JSON.parse(row.flags) as RoundTripFlag[]) : [],
    };
  }

  /**
   * The engine for the way back: the first, in fallback order, that is not `forward` and says
   * it offers the pair; else `forward` itself when it does. An engine that cannot tell what it
   * offers is passed over.
   */
  private async backEngine(
    forward: string,
    source: TranslationLanguageCode,
    target: TranslationLanguageCode,
  ): Promise<TranslationProvider | null> {
    const signal = AbortSignal.timeout(TRANSLATE_BUDGET_MS);
    const ordered = [
      ...this.providers.filter((p) => p.name !== forward),
      ...this.providers.filter((p) => p.name === forward),
    ];
    for (const provider of ordered) {
      const langs = await provider.languages(signal).catch(() => null);
      if (langs && offersPair(langs, source, target)) return provider;
    }
    return null;
  }

  /** One text by one engine: from its memory, else in one request (then remembered). */
  private async translateOne(
    seatId: number,
    provider: TranslationProvider,
    text: string,
    source: TranslationLanguageCode,
    target: TranslationLanguageCode,
  ): Promise<Translated> {
    // The workspace's glossary holds on the way back too, and keys the memory by its version.
    const view = (await this.glossary?.current()) ?? null;
    const version = view?.version ?? 0;
    const key = { engine: provider.name, source_lang: source, target_lang: target };
    const [hit] = await translationRepository.lookup(this.db, key, [memoryHash(text, version)]);
    if (hit) {
      this.meter?.memoryHits(provider.name, 1);
      await this.recordUsage(seatId, [
        { engine: provider.name, characters: 0, memory: text.length },
      ]);
      return {
        text: hit.translated,
        detected_source_language: null,
        from_memory: true,
        engine: provider.name,
      };
    }
    const usage: Usage[] = [];
    const substituted = view?.matcher(source, target, true) ?? null;
    const segments = new Map([[text, segment(text, substituted)]]);
    const fresh = await this.translateRuns(
      provider,
      [text],
      { segments, glossaryId: null },
      { texts: [text], source_lang: source, target_lang: target, direction: 'outgoing' },
      AbortSignal.timeout(TRANSLATE_BUDGET_MS),
      usage,
    );
    const translated = fresh.get(text)!;
    await translationRepository.store(this.db, [
      {
        ...key,
        text_hash: memoryHash(text, version),
        translated: translated.text,
        detected_lang: null,
        created_at: Date.now(),
      },
    ]);
    await this.recordUsage(seatId, usage);
    return translated;
  }

  async setCustomerLanguage(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/set_customer_language'>,
  ): Promise<CallResponse<'/v1/seat/chat/set_customer_language'>> {
    const row = await inTransaction(this.db, async (trx) => {
      const updated = await translationRepository.setCustomerLanguage(
        trx,
        seatId,
        input.session_id,
        input.customer_language,
      );
      if (updated) await this.events.sessionUpdated(trx, seatId, updated.id);
      return updated;
    });
    if (!row) throw notFound();
    return { session_id: row.id, customer_language: toListedCode(row.customer_language) };
  }
}
