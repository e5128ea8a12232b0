import { Avatar, Button, Divider, Menu, SegmentedControl, Stack, Text } from '@mantine/core';
import { useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { requestLogout } from '../../chat/components/unsent-logout';
import { readItem } from '../../../lib/storage';
import { setSize, useSettings } from '../settings.store';

/** Operator information: account, nickname, phone accounts, theme, density, logout. */
export function UserMenu() {
  const { t } = useTranslation();
  const info = readItem('userInfo');
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const size = useSettings((s) => s.size);
  const name = info?.nickname || info?.account || '';
  return (
    <Menu position="bottom-end" width={300} withinPortal closeOnItemClick={false}>
      <Menu.Target>
        <Button
          variant="subtle"
          size="compact-md"
          leftSection={<Avatar size={24} radius="xl" color="blue" name={name} />}
          data-testid="user-menu"
        >
          {name}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Stack gap={2} p="xs" data-testid="operator-info">
          <Text fw={700}>{info?.nickname}</Text>
          <Text size="xs" c="dimmed">
            {t('operator.account')}: {info?.account}
          </Text>
          <Text size="xs" c="dimmed" mt={6}>
            {t('operator.phoneAccounts')}
          </Text>
          {info?.phone_accounts.map((p) => (
            <Text size="sm" key={p.send_phone}>
              {p.send_phone}{' '}
              <Text span size="xs" c="dimmed">
                {p.label}
              </Text>
            </Text>
          ))}
        </Stack>
        <Divider my={4} />
        <Stack gap={6} p="xs">
          <Text size="xs" c="dimmed">
            {t('operator.theme')}
          </Text>
          <SegmentedControl
            size="xs"
            value={colorScheme}
            onChange={(v) => setColorScheme(v as MantineColorScheme)}
            data={[
              { value: 'light', label: t('theme.light') },
              { value: 'dark', label: t('theme.dark') },
              { value: 'auto', label: t('theme.system') },
            ]}
          />
          <Text size="xs" c="dimmed">
            {t('operator.size')}
          </Text>
          <SegmentedControl
            size="xs"
            value={size}
            onChange={(v) => setSize(v === 'sm' || v === 'lg' ? v : 'md')}
            data={[
              { value: 'sm', label: t('size.sm') },
              { value: 'md', label: t('size.md') },
              { value: 'lg', label: t('size.lg') },
            ]}
          />
        </Stack>
        <Divider my={4} />
        <Menu.Item color="red" onClick={requestLogout} data-testid="logout">
          {t('actions.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
