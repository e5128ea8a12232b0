import { Stack, Text, ThemeIcon, Title, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const SLOGANS = ['slogan1', 'slogan2', 'slogan3'] as const;

export function LoginSlogans() {
  const { t } = useTranslation('login');
  return (
    <Stack maw={420} gap="lg">
      <Group gap="sm">
        <ThemeIcon size={44} radius="md" variant="gradient" gradient={{ from: 'blue', to: 'cyan' }}>
          <Text fw={800} c="white" size="xl">
            P
          </Text>
        </ThemeIcon>
        <Title order={1}>{t('common:appName')}</Title>
      </Group>
      {SLOGANS.map((key, i) => (
        <Group key={key} gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon radius="xl" size="md" variant="light">
            {i + 1}
          </ThemeIcon>
          <Text size="lg" data-testid="login-slogan">
            {t(key)}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
