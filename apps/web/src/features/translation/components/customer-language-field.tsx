import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SessionItem, TranslationLanguageCode } from '@parley/protocol';
import { languageLabel } from '../../../lib/language-label';
import { setCustomerLanguage } from '../api/translation-api';
import { applyCustomerLanguage } from '../customer-language-cache';
import { isLanguageCode } from '../translation-languages';
import { LanguageSelect } from './language-select';

/**
 * The chat's customer language, remembered on the server (so it follows the operator to
 * another browser): shown, and changed or cleared with a searchable picker.
 */
export function CustomerLanguageField({ user }: { user: SessionItem }) {
  const { t, i18n } = useTranslation('profile');
  const qc = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const current = isLanguageCode(user.customer_language) ? user.customer_language : null;

  const save = async (code: TranslationLanguageCode | null) => {
    setBusy(true);
    try {
      const saved = await setCustomerLanguage(user.session_id, code);
      applyCustomerLanguage(qc, user.session_id, saved.customer_language);
      setEditing(false);
    } catch {
      // The request layer showed the refusal.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap={6}>
      <Group justify="space-between" wrap="nowrap">
        <Text data-testid="profile-language" c={current ? undefined : 'dimmed'}>
          {current ? languageLabel(current, i18n.language) : t('languageNotSet')}
        </Text>
        <Button
          size="compact-sm"
          variant="light"
          loading={busy}
          onClick={() => setEditing((v) => !v)}
          data-testid="profile-language-edit"
        >
          {editing ? t('common:actions.cancel') : t('languageChange')}
        </Button>
      </Group>
      {editing && (
        <LanguageSelect
          value={current}
          clearable
          placeholder={t('languageNotSet')}
          onChange={(code) => void save(code)}
          testId="profile-language-select"
        />
      )}
    </Stack>
  );
}
