import type { ReactNode } from 'react';
import { Group, Text, Title } from '@mantine/core';

/** A section's heading, its count and its main action. */
export function PageHeader({
  title,
  count,
  action,
}: {
  title: string;
  count?: string;
  action?: ReactNode;
}) {
  return (
    <Group justify="space-between" mb="sm" wrap="nowrap">
      <Group gap="sm" align="baseline">
        <Title order={2} size="h3">
          {title}
        </Title>
        {count && (
          <Text c="dimmed" size="sm" data-testid="admin-count" aria-live="polite">
            {count}
          </Text>
        )}
      </Group>
      {action}
    </Group>
  );
}
