import { useEffect, useState } from 'react';
import { Button, Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  currentSubscription,
  disablePush,
  enablePush,
  pushSupported,
  testPush,
} from '../../../lib/push-device';

type State = 'loading' | 'on' | 'off';

/**
 * Web Push on this device (operator information dialog): a switch that subscribes this browser
 * (asking the notification permission) and a test button. Fetched with the dialog.
 */
export function PushToggle() {
  const { t } = useTranslation('realtime');
  const [state, setState] = useState<State>('loading');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const supported = pushSupported();

  useEffect(() => {
    let live = true;
    void currentSubscription()
      .then((sub) => live && setState(sub && Notification.permission === 'granted' ? 'on' : 'off'))
      .catch(() => live && setState('off'));
    return () => {
      live = false;
    };
  }, []);

  const toggle = async (on: boolean) => {
    setBusy(true);
    setNote(null);
    try {
      if (on) {
        const result = await enablePush();
        if (result === 'denied') setNote(t('pushDenied'));
        if (result === 'unsupported') setNote(t('pushUnsupported'));
        setState(result === 'on' ? 'on' : 'off');
      } else {
        await disablePush();
        setState('off');
      }
    } catch {
      // A coded refusal already showed its toast; a browser's refusal says so here.
      setNote(t('pushFailed'));
    } finally {
      setBusy(false);
    }
  };

  const test = async () => {
    setBusy(true);
    setNote(null);
    try {
      if (await testPush()) setNote(t('pushTestSent'));
    } catch {
      // The call's toast says why.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap={6}>
      <Switch
        checked={state === 'on'}
        disabled={!supported || busy || state === 'loading'}
        onChange={(e) => void toggle(e.currentTarget.checked)}
        label={t('push')}
        description={supported ? t('pushHint') : t('pushUnsupported')}
        data-testid="operator-push"
      />
      {state === 'on' && (
        <Button
          size="compact-sm"
          variant="light"
          w="fit-content"
          disabled={busy}
          onClick={() => void test()}
          data-testid="operator-push-test"
        >
          {t('pushTest')}
        </Button>
      )}
      {note && (
        <Text size="sm" c="dimmed" role="status">
          {note}
        </Text>
      )}
    </Stack>
  );
}
