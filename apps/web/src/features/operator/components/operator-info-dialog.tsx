import '../../../components/mantine-console-styles';
import {
  Divider,
  Group,
  Loader,
  Modal,
  SegmentedControl,
  Stack,
  Text,
  useMantineColorScheme,
  type MantineColorScheme,
} from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { UI_LANGUAGES, type UiLanguage } from '@parley/protocol';
import { LANGUAGE_NAMES } from '../../../components/language-button';
import { setUiLanguage } from '../../../lib/i18n';
import { setSize, useSettings } from '../../../stores/settings.store';
import { operatorInfoQuery } from '../api/operator-queries';
import { LogoutActions } from './logout-actions';
import { LogoutAllConfirm } from './logout-all-confirm';
import { PhoneAccountList } from './phone-account-list';

/**
 * Operator information (product.md): the seat's account and name, its phone accounts fetched
 * fresh, the UI language, theme and density, and log out (here, or of every device after a
 * confirmation shown in place of the information).
 */
export function OperatorInfoDialog({
  settings,
  onClose,
}: {
  settings?: ReactNode;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('operator');
  const { data: info, isFetching } = useQuery(operatorInfoQuery());
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const size = useSettings((s) => s.size);
  const [confirmingAll, setConfirmingAll] = useState(false);
  const language = (UI_LANGUAGES as readonly string[]).includes(i18n.language)
    ? i18n.language
    : 'en';

  return (
    <Modal
      opened
      onClose={onClose}
      title={confirmingAll ? t('logoutAllTitle') : t('title')}
      size="md"
    >
      {confirmingAll ? (
        <LogoutAllConfirm onCancel={() => setConfirmingAll(false)} onClose={onClose} />
      ) : (
        <Stack gap="sm" data-testid="operator-info">
          <Field label={t('nickname')} value={info?.nickname ?? ''} testId="operator-nickname" />
          <Field label={t('account')} value={info?.account ?? ''} testId="operator-account" />
          <div>
            <Group gap="xs" mb={4}>
              <Text size="xs" c="dimmed">
                {t('phoneAccounts')}
              </Text>
              {isFetching && <Loader size={12} data-testid="operator-refreshing" />}
            </Group>
            <PhoneAccountList accounts={info?.phone_accounts ?? []} />
          </div>
          <Divider />
          <Setting label={t('language')}>
            <SegmentedControl
              fullWidth
              size="xs"
              value={language}
              onChange={(v) => void setUiLanguage(v as UiLanguage)}
              data={UI_LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
              data-testid="operator-language"
            />
          </Setting>
          <Setting label={t('theme')}>
            <SegmentedControl
              fullWidth
              size="xs"
              value={colorScheme}
              onChange={(v) => setColorScheme(v as MantineColorScheme)}
              data={[
                { value: 'light', label: t('themeLight') },
                { value: 'dark', label: t('themeDark') },
                { value: 'auto', label: t('themeSystem') },
              ]}
              data-testid="operator-theme"
            />
          </Setting>
          <Setting label={t('size')}>
            <SegmentedControl
              fullWidth
              size="xs"
              value={size}
              onChange={(v) => setSize(v === 'sm' || v === 'lg' ? v : 'md')}
              data={[
                { value: 'sm', label: t('sizeSm') },
                { value: 'md', label: t('sizeMd') },
                { value: 'lg', label: t('sizeLg') },
              ]}
              data-testid="operator-size"
            />
          </Setting>
          {settings}
          <Divider />
          <LogoutActions onClose={onClose} onLogoutAll={() => setConfirmingAll(true)} />
        </Stack>
      )}
    </Modal>
  );
}

function Field({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
}

function Setting({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Stack>
  );
}
