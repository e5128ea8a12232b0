import { useState } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TEAM_REPLY_CONFIRM_MS } from '@parley/protocol';
import {
  confirmReply,
  dismissReply,
  useReplyConfirm,
  type ReplyToConfirm,
} from '../../messages/outbox/reply-confirm.store';

/** "Ana replied 4 s ago. Send anyway?": a reply the server held back (409005) until confirmed. */
export function ReplyConfirmHost() {
  const asked = useReplyConfirm();
  if (!asked) return null;
  return <ReplyConfirmDialog key={asked.clientMsgId} asked={asked} />;
}

export function ReplyConfirmDialog({ asked }: { asked: ReplyToConfirm }) {
  const { t } = useTranslation('team');
  // Seconds since the other reply, as this console's clock puts it (within the rule's window).
  const [ago] = useState(() =>
    Math.min(
      TEAM_REPLY_CONFIRM_MS / 1000,
      Math.max(0, Math.round((Date.now() - asked.reply.at) / 1000)),
    ),
  );
  return (
    <Modal
      opened
      onClose={dismissReply}
      title={t('confirmReplyTitle')}
      centered
      data-testid="reply-confirm"
    >
      <Text size="sm" data-testid="reply-confirm-text">
        {t('confirmReplyText', { name: asked.reply.nickname, count: ago })}
      </Text>
      <Group justify="flex-end" mt="md" gap="xs">
        <Button variant="default" onClick={dismissReply} data-testid="reply-confirm-cancel">
          {t('confirmReplyCancel')}
        </Button>
        <Button onClick={confirmReply} data-testid="reply-confirm-send" data-autofocus>
          {t('confirmReplySend')}
        </Button>
      </Group>
    </Modal>
  );
}
