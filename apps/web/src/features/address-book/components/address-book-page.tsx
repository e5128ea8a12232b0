import { Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Placeholder until the address-book issue: a titled page. */
export function AddressBookPage() {
  const { t } = useTranslation();
  return (
    <Center h="100%" data-testid="address-book">
      <Stack align="center" gap="xs">
        <Title order={2}>{t('routes.addressBook')}</Title>
        <Text c="dimmed">{t('addressBook.comingSoon')}</Text>
      </Stack>
    </Center>
  );
}
