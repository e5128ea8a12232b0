import { Alert, Code, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import { readItem } from '../../../lib/storage';
import { formatMessageTime } from '../../../lib/format-time';
import { whatsappWindowQuery } from '../api/window-query';

/**
 * Above a WhatsApp chat's composer: when free-form replies stop being accepted (24 hours after
 * the customer's last message) and, once that has passed, that WhatsApp takes only the
 * number's approved templates, listed with their variables.
 */
export function WhatsappWindowNotice({ user }: { user: SessionItem }) {
  const { t, i18n } = useTranslation('chat');
  const isWhatsapp =
    readItem('userInfo')?.phone_accounts.find((a) => a.send_phone === user.send_phone)?.channel ===
    'whatsapp';
  const { data } = useQuery({ ...whatsappWindowQuery(user.session_id), enabled: isWhatsapp });
  if (!isWhatsapp || !data || data.window_ends_at === null) return null;
  const at = formatMessageTime(data.window_ends_at, i18n.language);
  if (data.open) {
    return (
      <Text size="xs" c="dimmed" px="md" py={4} data-testid="whatsapp-window" data-open="true">
        {t('whatsapp.windowOpen', { time: at })}
      </Text>
    );
  }
  return (
    <Alert color="yellow" radius={0} py="xs" data-testid="whatsapp-window" data-open="false">
      <Stack gap={4}>
        <Text size="sm">{t('whatsapp.windowClosed', { time: at })}</Text>
        {data.templates.length === 0 ? (
          <Text size="xs" c="dimmed">
            {t('whatsapp.noTemplates')}
          </Text>
        ) : (
          data.templates.map((tpl) => (
            <Text size="xs" key={`${tpl.name}:${tpl.language}`} data-testid="whatsapp-template">
              <Code>{tpl.name}</Code> ({tpl.language}) · {tpl.body}
              {tpl.variables > 0 && ` · ${t('whatsapp.variables', { count: tpl.variables })}`}
            </Text>
          ))
        )}
      </Stack>
    </Alert>
  );
}
