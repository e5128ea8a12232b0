import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { focusComposer } from '../../lib/keyboard';
import classes from './shortcuts.module.css';

/**
 * The first stops of Tab on the console: straight to the composer or the chat list, instead
 * of through every button of the header. Hidden until focused.
 */
export function SkipLinks() {
  const { t } = useTranslation();
  const skip = (target: () => boolean) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (target()) e.preventDefault();
  };
  // The open chat's row, else the first.
  const focusList = () => {
    const row =
      document.querySelector<HTMLElement>('[data-testid="user-item"][data-active="true"]') ??
      document.querySelector<HTMLElement>('[data-testid="user-item"]');
    row?.focus();
    return row !== null;
  };
  return (
    <nav className={classes.skips} aria-label={t('shortcuts.skipLabel')}>
      <a
        href="#chat-pane"
        className={classes.skip}
        onClick={skip(focusComposer)}
        data-testid="skip-composer"
      >
        {t('shortcuts.skipToComposer')}
      </a>
      <a
        href="#chat-list"
        className={classes.skip}
        onClick={skip(focusList)}
        data-testid="skip-list"
      >
        {t('shortcuts.skipToList')}
      </a>
    </nav>
  );
}
