import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { safeRedirect, tokenLogin } from '../api/auth-api';

/** Single sign-on hand-off: /auth?token=T&redirect=/home/chat. */
export function AuthPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const redirect = params.get('redirect');

  useEffect(() => {
    let cancelled = false;
    if (!token) {
      navigate('/login', { replace: true });
      return;
    }
    tokenLogin(token)
      .then(() => !cancelled && navigate(safeRedirect(redirect), { replace: true }))
      .catch(() => !cancelled && navigate('/login', { replace: true }));
    return () => {
      cancelled = true;
    };
  }, [token, redirect, navigate]);

  return (
    <Center h="100vh">
      <Stack align="center">
        <Loader />
        <Text c="dimmed">{t('auth.signingIn')}</Text>
      </Stack>
    </Center>
  );
}
