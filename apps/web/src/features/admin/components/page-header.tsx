import type { ReactNode } from 'react';
import { Group, Text, Title } from '@mantine/core';

/** A section's heading, its count and its main action. */
export function PageHeader({
  title,
  count,
  countTestId = 'admin-count',
  action,
}: {
  title: string;
  count?: string;
  countTestId?: string;
  action?: ReactNode;
}) {
  return (
    // On a phone the action goes under the heading rather than being cut (issue 37).
    <Group justify="space-between" mb="sm" gap="xs" data-testid="admin-page-header">
      <Group gap="sm" align="baseline">
        <Title order={2} size="h3">
          {title}
        </Title>
        {count && (
          <Text c="dimmed" size="sm" data-testid={countTestId} aria-live="polite">
            {count}
          </Text>
        )}
      </Group>
      {action}
    </Group>
  );
}
