import '../../../components/mantine-console-styles';
import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import { formatMessageTime } from '../../../lib/format-time';
import { useReplyWindow } from '../../sessions/hooks/use-reply-window';

/**
 * Above a WhatsApp chat's composer: when free-form replies stop being accepted (24 hours after
 * the customer's last message: the chat's `reply_until`) and, once that has passed (or before
 * the customer ever wrote), that WhatsApp takes only the number's approved templates: the
 * template composer below.
 */
export function WhatsappWindowNotice({ user }: { user: SessionItem }) {
  const { t, i18n } = useTranslation('chat');
  const { canReply, until, windowed } = useReplyWindow(user);
  if (!windowed) return null;
  const at = until === null ? null : formatMessageTime(until, i18n.language);
  if (canReply) {
    return (
      <Text size="xs" c="dimmed" px="md" py={4} data-testid="whatsapp-window" data-open="true">
        {t('whatsapp.windowOpen', { time: at })}
      </Text>
    );
  }
  return (
    <Alert color="yellow" radius={0} py="xs" data-testid="whatsapp-window" data-open="false">
      <Text size="sm">
        {at === null ? t('whatsapp.windowNever') : t('whatsapp.windowClosed', { time: at })}
      </Text>
    </Alert>
  );
}
