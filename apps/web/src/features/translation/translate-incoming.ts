import { TRANSLATE_TEXTS_MAX, type ChatMessage } from '@parley/protocol';
import type { DisplayMessage } from '../messages/api/merge-messages';
import {
  translateTexts,
  translationProblem,
  unservedAnswer,
  type TranslationProblem,
} from './api/translation-api';
import { lookupTranslation } from './translation-index';
import { incomingSource } from './translation-languages';
import { isPending, markPending, unmarkPending } from './translation-pending.store';
import { translation } from './translation.store';
import { clearUnserved, markUnserved, unservedPair } from './unserved-pairs.store';

/** A stored message with words to translate (a text, or a media message's caption). */
export function translatableMessage(
  m: DisplayMessage | ChatMessage,
  incomingOnly: boolean,
): ChatMessage | null {
  if ('isLocalInsert' in m || m.deleted || m.content.trim() === '') return null;
  if (incomingOnly && m.direction !== 'in') return null;
  return m;
}

export interface IncomingJob {
  sessionId: number;
  customerLanguage: string | null;
  messages: readonly ChatMessage[];
  /** The engine detects languages (translate/languages auto_detect). */
  autoDetect: boolean;
  /** Leaving the chat aborts the requests; nothing is written after that. */
  signal?: AbortSignal;
  /** Translate again even when a translation is kept (the context menu's Translate). */
  force?: boolean;
}

export type IncomingResult =
  | { kind: 'done'; customerLanguage: string | null }
  | { kind: 'same_language' }
  | { kind: 'aborted' }
  /** Nothing on the server translates the chat's pair (unserved-pairs.store holds why). */
  | { kind: 'unserved' }
  | { kind: 'failed'; problem: TranslationProblem | null };

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * Translates a chat's messages into the operator's language, newest first, up to 50 texts a
 * request, skipping those already translated or being translated. Each answer is kept under
 * its chat and message id (translation history), and only if the job was not aborted.
 */
export async function translateIncoming(job: IncomingJob): Promise<IncomingResult> {
  const settings = translation.get();
  const source = incomingSource(job.customerLanguage, settings, job.autoDetect);
  if (source === null) return { kind: 'same_language' };
  const target = settings.targetLanguage;
  const sid = job.sessionId;
  // The server said so already: asking again would get the same answer.
  if (unservedPair(sid, source, target)) return { kind: 'unserved' };
  const todo = job.messages
    .filter((m) => !isPending(sid, m.msg_id))
    .filter((m) => job.force || !lookupTranslation(settings.hisTranslateMsg, sid, m.msg_id, target))
    .sort((a, b) => b.msg_id - a.msg_id);

  if (todo.length === 0) return { kind: 'done', customerLanguage: job.customerLanguage };
  // All marked at once, before the first await: a second job started meanwhile skips them.
  markPending(
    sid,
    todo.map((m) => m.msg_id),
  );
  let customerLanguage = job.customerLanguage;
  const batches = chunks(todo, TRANSLATE_TEXTS_MAX);
  try {
    for (const batch of batches) {
      if (job.signal?.aborted) return { kind: 'aborted' };
      try {
        const answer = await translateTexts(
          {
            session_id: sid,
            texts: batch.map((m) => m.content),
            source_lang: source,
            target_lang: target,
            direction: 'incoming',
          },
          job.signal,
        );
        if (job.signal?.aborted) return { kind: 'aborted' };
        translation.remember(
          batch.map((m, i) => ({
            session_id: sid,
            msg_id: m.msg_id,
            text: answer.translations[i]?.text ?? '',
            lang: target,
            engine: answer.translations[i]?.engine ?? null,
          })),
        );
        customerLanguage = answer.customer_language ?? customerLanguage;
        clearUnserved(sid);
      } catch (err) {
        if (job.signal?.aborted) return { kind: 'aborted' };
        const unserved = unservedAnswer(err);
        if (unserved) {
          markUnserved(sid, { source, target, ...unserved });
          return { kind: 'unserved' };
        }
        return { kind: 'failed', problem: translationProblem(err) };
      } finally {
        unmarkPending(
          sid,
          batch.map((m) => m.msg_id),
        );
      }
    }
  } finally {
    // What an abort or a failure left untranslated is no longer pending.
    unmarkPending(
      sid,
      todo.map((m) => m.msg_id),
    );
  }
  return { kind: 'done', customerLanguage };
}
