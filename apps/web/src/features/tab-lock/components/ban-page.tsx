import { Button, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { claimTab } from '../../../lib/tab-lock';
import { TAB_ID, tabChannel, type TakeoverMessage } from '../tab-id';
import { LineIcon } from '../../../components/line-icon';

/** Shown when the app is already open in another tab; "Use here" takes the session over. */
export function BanPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;

  const useHere = () => {
    claimTab(window.localStorage, TAB_ID, Date.now());
    tabChannel()?.postMessage({ type: 'takeover', id: TAB_ID } satisfies TakeoverMessage);
    const target = from && from !== '/ban-page' && !from.startsWith('/login') ? from : '/home/chat';
    navigate(target, { replace: true });
  };

  return (
    <EmptyState
      size="page"
      testId="ban-page"
      icon={<TabsIcon />}
      title={t('ban.heading')}
      text={
        <>
          {/* The spec's message, then what it means and what to do. */}
          <Text
            component="span"
            display="block"
            fw={500}
            c="var(--mantine-color-text)"
            data-testid="ban-message"
          >
            {t('messages:appOpenInAnotherTab')}
          </Text>
          {t('ban.hint')}
        </>
      }
      action={
        <Button onClick={useHere} data-testid="ban-use-here">
          {t('ban.useHere')}
        </Button>
      }
    />
  );
}

/** Two overlapping windows: the app open twice. */
function TabsIcon() {
  return (
    <LineIcon size={28}>
      <rect x="3" y="7" width="14" height="12" rx="2" />
      <path d="M7 7V5a2 2 0 0 1 2-2h10a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-2" />
    </LineIcon>
  );
}
