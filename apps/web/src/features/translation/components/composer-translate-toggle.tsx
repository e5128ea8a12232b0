import { ActionIcon } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { languageLabel } from '../../../lib/language-label';
import { translation } from '../translation.store';
import type { useOutgoingTranslation } from '../hooks/use-outgoing-translation';
import { TranslateIcon } from './translate-icon';

type Outgoing = ReturnType<typeof useOutgoingTranslation>;

/** Turns outgoing translation on or off (kept in the translation settings). */
export function ComposerTranslateToggle({
  outgoing,
  disabled,
}: {
  outgoing: Outgoing;
  disabled: boolean;
}) {
  const { t, i18n } = useTranslation('translation');
  if (!outgoing.available || !outgoing.pair) return null;
  const label = t('sendIn', { language: languageLabel(outgoing.pair.target, i18n.language) });
  return (
    <ActionIcon
      variant={outgoing.active ? 'filled' : 'subtle'}
      size="lg"
      disabled={disabled}
      aria-pressed={outgoing.active}
      aria-label={label}
      title={label}
      onClick={() => translation.update({ translateOutgoing: !outgoing.active })}
      data-testid="composer-translate-toggle"
    >
      <TranslateIcon />
    </ActionIcon>
  );
}
