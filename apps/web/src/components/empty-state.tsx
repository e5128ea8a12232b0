import type { ReactNode } from 'react';
import { Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';

interface Props {
  /** The region's test id; its explanation is `<testId>-text`. */
  testId: string;
  title: string;
  text: ReactNode;
  /** The way out: what the operator can do from here (a button or a link). */
  action?: ReactNode;
  icon?: ReactNode;
  /** A whole page (the ban page, 404) or a pane of the console. */
  size?: 'page' | 'pane';
}

/** What a page or pane shows when it has nothing to show: a heading, why, and the way out. */
export function EmptyState({ testId, title, text, action, icon, size = 'pane' }: Props) {
  const page = size === 'page';
  return (
    <Center h={page ? '100vh' : '100%'} p="md" data-testid={testId}>
      <Stack align="center" ta="center" gap="xs" maw={page ? 480 : 340}>
        {icon && (
          <ThemeIcon size={page ? 56 : 44} radius="xl" variant="light" aria-hidden>
            {icon}
          </ThemeIcon>
        )}
        <Title order={page ? 1 : 3} size={page ? 'h2' : 'h4'}>
          {title}
        </Title>
        <Text
          c="dimmed"
          size={page ? 'md' : 'sm'}
          style={{ overflowWrap: 'anywhere' }}
          data-testid={`${testId}-text`}
        >
          {text}
        </Text>
        {action && <div style={{ marginTop: 'var(--mantine-spacing-xs)' }}>{action}</div>}
      </Stack>
    </Center>
  );
}
