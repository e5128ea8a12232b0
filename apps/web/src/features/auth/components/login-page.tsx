import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Box, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { ThrottledButton } from '../../../components/throttled-button';
import { LanguageSwitcher } from '../../../components/language-switcher';
import { ThemeToggle } from '../../../components/theme-toggle';
import { login, safeRedirect } from '../api/auth-api';
import { LoginSlogans } from './login-slogans';
import { prepareTimeFormats } from '../../../lib/format-time';
import { whenIdle } from '../../../lib/when-idle';

export function LoginPage() {
  const { t, i18n } = useTranslation('login');
  const navigate = useNavigate();
  // The console's first rows format their times: the formatters are built while the operator
  // types (the first one costs several ms, inside that render otherwise).
  useEffect(() => whenIdle(() => prepareTimeFormats(i18n.language)), [i18n.language]);
  const [params] = useSearchParams();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ account?: string; password?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next = {
      account: account.trim() ? undefined : t('errors.usernameRequired'),
      password: password ? undefined : t('errors.passwordRequired'),
    };
    setErrors(next);
    if (next.account || next.password || busy) return;
    setBusy(true);
    try {
      await login(account, password);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch {
      // The request layer already showed the translated error toast.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box
      mih="100vh"
      style={{ display: 'flex', flexDirection: 'column' }}
      bg="var(--mantine-color-body)"
    >
      <Group justify="flex-end" p="md" gap="xs">
        <LanguageSwitcher />
        <ThemeToggle />
      </Group>
      <Group flex={1} justify="center" align="center" gap={64} p="xl" wrap="wrap">
        <LoginSlogans />
        <Paper withBorder shadow="md" radius="md" p="xl" w={380}>
          <form onSubmit={submit} noValidate>
            <Stack>
              <div>
                <Title order={2} data-testid="login-title">
                  {t('title')}
                </Title>
                <Text c="dimmed" size="sm" data-testid="login-subtitle">
                  {t('subtitle')}
                </Text>
              </div>
              <TextInput
                label={t('username')}
                placeholder={t('usernamePlaceholder')}
                value={account}
                onChange={(e) => setAccount(e.currentTarget.value)}
                error={errors.account}
                autoComplete="username"
                data-testid="login-username"
              />
              <PasswordInput
                label={t('password')}
                placeholder={t('passwordPlaceholder')}
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={errors.password}
                autoComplete="current-password"
                data-testid="login-password"
              />
              <ThrottledButton type="submit" loading={busy} fullWidth data-testid="login-submit">
                {t('submit')}
              </ThrottledButton>
            </Stack>
          </form>
        </Paper>
      </Group>
    </Box>
  );
}
