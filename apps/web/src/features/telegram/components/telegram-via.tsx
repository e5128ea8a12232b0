import { useTranslation } from 'react-i18next';

/** After the profile card's "via <bot's account>": the chat is on Telegram. */
export function TelegramVia() {
  const { t } = useTranslation('profile');
  return <>{` · ${t('telegram')}`}</>;
}
