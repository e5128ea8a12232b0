import { Link } from 'react-router';
import { Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { HandOff } from '../hooks/use-token-hand-off';

/**
 * Why the /auth hand-off did not sign the operator in, and the way on: the login page (which
 * then continues to where the link pointed), or trying again when the server could not tell.
 */
export function AuthLinkProblem({
  outcome,
  target,
  onRetry,
}: {
  outcome: Exclude<HandOff, { state: 'checking' }>;
  target: string;
  onRetry: () => void;
}) {
  const { t } = useTranslation('login');
  const invalid = outcome.state === 'invalid';
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="md" radius="md" p="xl" maw={460}>
        <Stack data-testid="auth-problem" data-reason={outcome.state}>
          <Title order={3} data-testid="auth-problem-title">
            {invalid ? t('authLink.invalidTitle') : t('authLink.failedTitle')}
          </Title>
          <Text c="dimmed" data-testid="auth-problem-hint">
            {invalid ? t('authLink.invalidHint') : outcome.reason}
          </Text>
          <Group justify="flex-end">
            {!invalid && (
              <Button variant="default" onClick={onRetry} data-testid="auth-retry">
                {t('authLink.retry')}
              </Button>
            )}
            <Button
              component={Link}
              to={`/login?redirect=${encodeURIComponent(target)}`}
              data-testid="auth-to-login"
            >
              {t('authLink.toLogin')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
