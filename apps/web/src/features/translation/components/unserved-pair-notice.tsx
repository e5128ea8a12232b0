import { Alert, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import { languageLabel } from '../../../lib/language-label';
import { languagesQuery } from '../api/translation-api';
import { incomingSource } from '../translation-languages';
import { useTranslationSettings } from '../translation.store';
import { dismissUnserved, useUnservedPair } from '../unserved-pairs.store';
import { offerSummary, orList } from '../unserved-pair-text';
import { engineName } from './engine-info';

/**
 * Said once, inside the chat, when nothing on the server translates the chat's language pair:
 * which pair, what the configured engines do translate, and what would serve it.
 */
export function UnservedPairNotice({ user }: { user: SessionItem }) {
  const { t, i18n } = useTranslation('translation');
  const settings = useTranslationSettings((s) => s);
  const langs = useQuery({ ...languagesQuery, enabled: settings.isEnable });
  const entry = useUnservedPair(user.session_id);
  const source = incomingSource(user.customer_language, settings, langs.data?.auto_detect ?? false);
  if (!settings.isEnable || !entry || entry.dismissed) return null;
  // Only while it is still the chat's pair (a new customer language or target asks afresh).
  if (entry.source !== source || entry.target !== settings.targetLanguage) return null;

  const ui = i18n.language;
  const name = (code: string) =>
    code === 'auto' ? t('detectedLanguage') : languageLabel(code, ui);
  const engines = entry.offers
    .map((o) => `${engineName(o.engine)}: ${offerSummary(o, ui, t)}`)
    .join('; ');
  const suggested = entry.suggestedEngines.map(engineName);
  return (
    <Alert
      color="yellow"
      variant="light"
      mx="md"
      mt="xs"
      py="xs"
      withCloseButton
      closeButtonLabel={t('unservedHide')}
      onClose={() => dismissUnserved(user.session_id)}
      title={t('unservedTitle', { source: name(entry.source), target: name(entry.target) })}
      data-testid="translation-unserved"
      data-reason={entry.reason}
    >
      <Text size="sm">
        {entry.reason === 'not_configured'
          ? t('unservedNoEngine')
          : t('unservedBy', { count: entry.offers.length, engines })}{' '}
        {suggested.length > 0
          ? t('unservedSuggest', { engines: orList(suggested, ui) })
          : t('unservedAskAdmin')}
      </Text>
    </Alert>
  );
}
