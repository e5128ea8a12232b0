import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Center h="100vh" data-testid="not-found">
      <Stack align="center">
        <Title order={1} c="dimmed">
          404
        </Title>
        <Text>{t('notFound.message')}</Text>
        <Anchor component={Link} to="/home/chat" data-testid="not-found-home">
          {t('notFound.back')}
        </Anchor>
      </Stack>
    </Center>
  );
}
