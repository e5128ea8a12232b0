import { Badge, type BadgeProps } from '@mantine/core';
import { memo } from 'react';

interface Props extends Omit<BadgeProps, 'children'> {
  count: number;
  testId: string;
}

/** An unread badge; absent when the count is 0 (UI contract). */
export const CountBadge = memo(function CountBadge({ count, testId, ...rest }: Props) {
  if (count <= 0) return null;
  return (
    <Badge
      color="red"
      size="sm"
      circle={count < 10}
      style={{ flexShrink: 0, overflow: 'visible' }}
      {...rest}
      data-testid={testId}
    >
      {count}
    </Badge>
  );
});
