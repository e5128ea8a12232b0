import { useTranslation } from 'react-i18next';
import classes from './message-bubble.module.css';

/**
 * The customer's reaction to a message (an emoji, as WhatsApp shows it under the bubble),
 * read out as a sentence: an emoji alone says little to a screen reader.
 */
export function MessageReaction({ reaction }: { reaction: string }) {
  const { t } = useTranslation('chat');
  const label = t('reaction', { emoji: reaction });
  return (
    <span
      className={classes.reaction}
      role="img"
      aria-label={label}
      title={label}
      data-testid="message-reaction"
    >
      {reaction}
    </span>
  );
}
