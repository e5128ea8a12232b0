import { Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SHORTCUTS } from '../../lib/keyboard';
import classes from './shortcuts.module.css';

/** "?": the console's keyboard shortcuts, translated. */
export function ShortcutsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('shortcuts.title')} centered>
      <Stack gap="xs" data-testid="shortcuts-dialog">
        {SHORTCUTS.map((s) => (
          <Group key={s.label} justify="space-between" wrap="nowrap" gap="md">
            <Text size="sm">{t(`shortcuts.${s.label}`)}</Text>
            <Group gap={4} wrap="nowrap">
              {s.keys.map((k) => (
                <kbd key={k} className={classes.key}>
                  {k}
                </kbd>
              ))}
            </Group>
          </Group>
        ))}
        <Text size="xs" c="dimmed">
          {t('shortcuts.notWhileTyping')}
        </Text>
      </Stack>
    </Modal>
  );
}
