import { Avatar, type MantineSize } from '@mantine/core';
import type { SessionItem } from '@parley/protocol';
import { avatarColorOf, customerDisplayName, initialsOf } from '../lib/customer-name';

type Customer = Pick<
  SessionItem,
  'remark' | 'customer_name' | 'receiver_phone' | 'send_phone' | 'avatar_url'
>;

/**
 * A customer's face: the channel's photo where it has one (a media of the seat, served by
 * Parley), else their initials on their own colour. A photo that fails to load shows the
 * initials (Mantine's Avatar falls back to its children).
 */
export function CustomerAvatar({
  customer,
  size = 'md',
  testId,
}: {
  customer: Customer;
  size?: MantineSize | number;
  testId?: string;
}) {
  return (
    <Avatar
      src={customer.avatar_url}
      alt={customerDisplayName(customer)}
      color={avatarColorOf(customer)}
      variant="filled"
      radius="xl"
      size={size}
      data-testid={testId}
      data-photo={customer.avatar_url ? 'true' : 'false'}
      style={{ flexShrink: 0 }}
    >
      {initialsOf(customer)}
    </Avatar>
  );
}
