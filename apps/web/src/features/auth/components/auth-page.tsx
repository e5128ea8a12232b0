import { useSearchParams } from 'react-router';
import { Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { safeRedirect } from '../api/auth-api';
import { useTokenHandOff } from '../hooks/use-token-hand-off';
import { AuthLinkProblem } from './auth-link-problem';

/** Single sign-on hand-off: /auth?token=T&redirect=/home/chat. */
export function AuthPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'));
  const { outcome, retry } = useTokenHandOff(params.get('token') ?? '', target);

  if (outcome.state !== 'checking') {
    return <AuthLinkProblem outcome={outcome} target={target} onRetry={retry} />;
  }
  return (
    <Center h="100vh">
      <Stack align="center">
        <Loader />
        <Text c="dimmed">{t('auth.signingIn')}</Text>
      </Stack>
    </Center>
  );
}
