import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { LanguageSwitcher } from '../../../components/language-switcher';
import { ThemeToggle } from '../../../components/theme-toggle';
import { ApiError } from '../../../lib/api-core';
import { callAdmin } from '../api/admin-client';
import { writeAdminLogin } from '../api/admin-token';

interface Props {
  /** Where to go once signed in (the shell keeps it inside /admin). */
  next: (redirect: string | null) => string;
}

/** /admin/login: the administrator's sign-in, apart from the seats' /login. */
export function AdminLoginPage({ next }: Props) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ account?: string; password?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = {
      account: account.trim() ? undefined : t('login.accountRequired'),
      password: password ? undefined : t('login.passwordRequired'),
    };
    setErrors(found);
    if (found.account || found.password || busy) return;
    setBusy(true);
    try {
      const info = await callAdmin(
        '/v1/admin/login',
        { account: account.trim(), password },
        { notify: false },
      );
      writeAdminLogin({ token: info.token, account: info.account, expires_at: info.expires_at });
      navigate(next(params.get('redirect')), { replace: true });
    } catch (err) {
      setErrors({ form: err instanceof ApiError ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box
      mih="100vh"
      bg="var(--mantine-color-body)"
      style={{ display: 'flex', flexDirection: 'column' }}
    >
      <Group justify="flex-end" p="md" gap="xs">
        <LanguageSwitcher />
        <ThemeToggle />
      </Group>
      <Group flex={1} justify="center" align="center" p="xl">
        <Paper withBorder shadow="md" radius="md" p="xl" w={380} component="main">
          <form onSubmit={submit} noValidate aria-labelledby="admin-login-title">
            <Stack>
              <div>
                <Title order={1} size="h2" id="admin-login-title" data-testid="admin-login-title">
                  {t('login.title')}
                </Title>
                <Text c="dimmed" size="sm">
                  {t('login.subtitle')}
                </Text>
              </div>
              {params.get('expired') === '1' && !errors.form && (
                <Alert color="yellow" data-testid="admin-login-expired" role="status">
                  {t('login.expired')}
                </Alert>
              )}
              {errors.form && (
                <Alert color="red" data-testid="admin-login-error" role="alert">
                  {errors.form}
                </Alert>
              )}
              <TextInput
                label={t('login.account')}
                value={account}
                onChange={(e) => setAccount(e.currentTarget.value)}
                error={errors.account}
                autoComplete="username"
                data-testid="admin-login-account"
              />
              <PasswordInput
                label={t('login.password')}
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={errors.password}
                autoComplete="current-password"
                data-testid="admin-login-password"
              />
              <Button type="submit" loading={busy} fullWidth data-testid="admin-login-submit">
                {t('login.submit')}
              </Button>
            </Stack>
          </form>
        </Paper>
      </Group>
    </Box>
  );
}
