import { memo } from 'react';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AddressBookEntry } from '@parley/protocol';
import { useGroupName } from '../../sessions/hooks/use-group-name';
import { CustomerAvatar } from '../../../components/customer-avatar';
import classes from './address-book-item.module.css';

interface Props {
  entry: AddressBookEntry;
  onEditRemark: (entry: AddressBookEntry) => void;
  onOpenChat: (entry: AddressBookEntry) => void;
}

/** One customer of one account: number, remark, account, group, block state and actions. */
export const AddressBookItem = memo(function AddressBookItem({
  entry: e,
  onEditRemark,
  onOpenChat,
}: Props) {
  const { t } = useTranslation('addressBook');
  const groupName = useGroupName();
  return (
    <Group
      className={classes.row}
      justify="space-between"
      wrap="nowrap"
      data-testid="address-book-item"
      data-session-id={e.session_id}
      data-receiver-phone={e.receiver_phone}
      data-blocked={e.blocked ? 'true' : 'false'}
    >
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        <CustomerAvatar customer={e} size={40} testId="address-book-avatar" />
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap">
            <Text fw={600} data-testid="address-book-phone">
              {e.receiver_phone}
            </Text>
            {e.customer_name && (
              <Text size="sm" truncate title={e.customer_name} data-testid="address-book-name">
                {e.customer_name}
              </Text>
            )}
            {e.blocked && (
              <Badge color="red" variant="light" size="sm" data-testid="address-book-blocked">
                {t('blocked')}
              </Badge>
            )}
          </Group>
          <Text
            size="sm"
            c={e.remark ? undefined : 'dimmed'}
            truncate
            data-testid="address-book-remark"
          >
            {e.remark || t('noRemark')}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {t('account', { phone: e.send_phone })} · {t('group', { name: groupName(e) })}
          </Text>
        </Stack>
      </Group>
      <Group gap="xs" wrap="nowrap">
        <Button
          size="compact-sm"
          variant="default"
          onClick={() => onEditRemark(e)}
          data-testid="address-book-edit-remark"
        >
          {t('editRemark')}
        </Button>
        <Button
          size="compact-sm"
          variant="light"
          onClick={() => onOpenChat(e)}
          data-testid="address-book-open-chat"
        >
          {t('openChat')}
        </Button>
      </Group>
    </Group>
  );
});
