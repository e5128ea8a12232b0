import { useState } from 'react';
import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { channelAbilities, type ChatMessage } from '@parley/protocol';
import type { DeleteScope } from '../../messages/api/message-actions-api';
import { useMessageActions } from '../hooks/use-message-actions';
import { useConsole } from '../../../stores/console.store';
import { readItem } from '../../../lib/storage';

/**
 * Whether the open chat's account is on a channel that cannot withdraw a delivered message: the
 * console offers only "for me" there (the server refuses "for all" with reason
 * `channel_cannot_delete`).
 */
function useCannotDeleteForAll(): boolean {
  const sendPhone = useConsole((s) => s.selectedUser?.send_phone);
  const channel = readItem('userInfo')?.phone_accounts.find(
    (a) => a.send_phone === sendPhone,
  )?.channel;
  return !channelAbilities(channel).deleteForEveryone;
}

interface Props {
  message: ChatMessage;
  onClose: () => void;
}

/**
 * The spec's two delete options: only for me, or for all. "For all" is offered for the
 * operator's own messages (not yet retracted); the server still refuses it after its window.
 */
export function DeleteMessageDialog({ message, onClose }: Props) {
  const { t } = useTranslation('message-actions');
  const actions = useMessageActions();
  const channelRefuses = useCannotDeleteForAll();
  const canAll = message.direction === 'out' && !message.deleted && !channelRefuses;
  const [scope, setScope] = useState<DeleteScope>('me');
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    const done = await actions.remove(message, scope);
    setBusy(false);
    if (done) onClose();
  };

  return (
    <Modal opened onClose={onClose} title={t('deleteTitle')} centered>
      <Stack data-testid="delete-message-dialog">
        <Radio.Group value={scope} onChange={(v) => setScope(v === 'all' ? 'all' : 'me')}>
          <Stack gap="xs">
            <Radio value="me" label={t('scopeMe')} data-testid="delete-scope-me" />
            {canAll && <Radio value="all" label={t('scopeAll')} data-testid="delete-scope-all" />}
          </Stack>
        </Radio.Group>
        <Text size="xs" c="dimmed">
          {scope === 'me' ? t('scopeMeHint') : t('scopeAllHint')}
        </Text>
        {channelRefuses && message.direction === 'out' && (
          <Text size="xs" c="orange" data-testid="delete-all-impossible">
            {t('channelCannotDelete')}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-testid="confirm-cancel">
            {t('common:actions.cancel')}
          </Button>
          <Button
            color="red"
            loading={busy}
            onClick={() => void submit()}
            data-testid="delete-message-confirm"
          >
            {t('delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
