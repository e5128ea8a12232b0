import '@mantine/core/styles/Modal.layer.css';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';

export interface ConfirmProps {
  opened: boolean;
  title: ReactNode;
  message: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  confirmLabel?: string;
  danger?: boolean;
  testId?: string;
  loading?: boolean;
}

/** The confirmation dialog itself (components/confirm-modal.tsx loads it when first opened). */
export function ConfirmDialog(props: ConfirmProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={props.opened} onClose={props.onCancel} title={props.title} centered>
      <Stack data-testid={props.testId}>
        <Text>{props.message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel} data-testid="confirm-cancel">
            {t('actions.cancel')}
          </Button>
          <Button
            color={props.danger ? 'red' : undefined}
            onClick={props.onConfirm}
            loading={props.loading}
            data-testid="confirm-ok"
          >
            {props.confirmLabel ?? t('actions.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
