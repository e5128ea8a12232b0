import { notifications } from '@mantine/notifications';
import { i18n } from '../../lib/i18n';
import type { TranslationProblem } from './api/translation-api';

/** One toast for translation problems at a time (auto-all may hit the same one per batch). */
export function showTranslationProblem(problem: TranslationProblem | null): void {
  if (!problem) return;
  notifications.show({
    id: 'translation-problem',
    color: 'red',
    message: i18n.t(`messages:${problem}`),
    autoClose: 4000,
  });
}

export function showTranslationNotice(key: 'sameLanguage' | 'nothingToTranslate'): void {
  notifications.show({
    id: 'translation-notice',
    color: 'yellow',
    message: i18n.t(`translation:${key}`),
    autoClose: 3000,
  });
}
